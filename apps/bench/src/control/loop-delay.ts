import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Sampling interval of the server's event-loop monitor, ms. 1 ms (Node's default is 10) so a stall is
 * measured to within a millisecond; the monitor runs only while a workload asks for it (W6's connects).
 */
export const LOOP_DELAY_RESOLUTION_MS = 1;

/** What the monitor saw between `start` and `stop`. */
export interface LoopDelay {
  /** The longest stall: the largest delay between two samples, less the sampling interval, ms. */
  stallMs: number;
  /** The 99th percentile of the same delays, less the interval, ms. */
  p99Ms: number;
  samples: number;
}

/** `perf_hooks.monitorEventLoopDelay` in the server process, switched on and off over the side channel. */
export class LoopDelayMonitor {
  #histogram: IntervalHistogram | undefined;

  start(): void {
    this.#histogram?.disable();
    this.#histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
    this.#histogram.enable();
  }

  stop(): LoopDelay {
    const histogram = this.#histogram;
    this.#histogram = undefined;
    if (histogram === undefined) return { stallMs: 0, p99Ms: 0, samples: 0 };
    histogram.disable();
    const beyond = (ns: number): number => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);
    return {
      stallMs: beyond(histogram.max),
      p99Ms: beyond(histogram.percentile(99)),
      samples: histogram.count,
    };
  }
}
