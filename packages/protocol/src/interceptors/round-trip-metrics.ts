import type { Interceptor, OutgoingRequestCall } from '../engine/interceptors.js';

/**
 * A p95 bound crossed (or left again) by one method's round-trip times over the window.
 *
 * @example
 * ```ts
 * const onAlert = (alert: RoundTripAlert) =>
 *   console.warn(`${alert.method} p95 ${alert.p95Ms.toFixed(0)} ms (${alert.state}, bound ${alert.thresholdMs} ms)`);
 * ```
 */
export interface RoundTripAlert {
  method: string;
  /** `'above'`: p95 went over `thresholdMs`; `'recovered'`: it came back under. */
  state: 'above' | 'recovered';
  p95Ms: number;
  thresholdMs: number;
  /** Samples in the window the percentile was computed over. */
  samples: number;
}

/**
 * One method's round-trip times over the window (`RoundTripMetrics.snapshot()`).
 *
 * @example
 * ```ts
 * for (const [method, stats] of Object.entries(metrics.snapshot())) console.log(method, stats.p95Ms);
 * ```
 */
export interface RoundTripStats {
  count: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * How far back `roundTripMetrics` percentiles look (`windowMs`): 1 minute, long enough for a stable
 * p95, short enough that an alert clears soon after the peer recovers.
 *
 * @example
 * ```ts
 * const metrics = roundTripMetrics({ thresholdMs: 500, windowMs: 5 * DEFAULT_METRICS_WINDOW_MS });
 * ```
 */
export const DEFAULT_METRICS_WINDOW_MS = 60_000;

/**
 * Samples `roundTripMetrics` keeps per method, the oldest dropped first (`maxSamples`): 500, enough for
 * a p95 of a busy method within a few kilobytes each.
 *
 * @example
 * ```ts
 * const metrics = roundTripMetrics({ thresholdMs: 500, maxSamples: 2 * DEFAULT_METRICS_MAX_SAMPLES });
 * ```
 */
export const DEFAULT_METRICS_MAX_SAMPLES = 500;

/**
 * Samples a window needs before `roundTripMetrics` may alert (`minSamples`): 20, so that one slow call
 * is not taken for a trend.
 *
 * @example
 * ```ts
 * const metrics = roundTripMetrics({ thresholdMs: 500, minSamples: DEFAULT_METRICS_MIN_SAMPLES / 2 });
 * ```
 */
export const DEFAULT_METRICS_MIN_SAMPLES = 20;

/**
 * Options of {@link roundTripMetrics}.
 *
 * @example
 * ```ts
 * roundTripMetrics({ thresholdMs: 800, windowMs: 30_000, onAlert: (alert) => pager.notify(alert) });
 * ```
 */
export interface RoundTripMetricsOptions {
  /** The p95 bound in ms; crossing it either way calls `onAlert`. Default: no alerts. */
  thresholdMs?: number | undefined;
  /** How far back the percentiles look, in ms. Default {@link DEFAULT_METRICS_WINDOW_MS} (1 min). */
  windowMs?: number | undefined;
  /** Most samples kept per method (the oldest go first). Default {@link DEFAULT_METRICS_MAX_SAMPLES} (500). */
  maxSamples?: number | undefined;
  /** Samples a window needs before it may alert (one slow call is not a trend). Default {@link DEFAULT_METRICS_MIN_SAMPLES} (20). */
  minSamples?: number | undefined;
  onAlert?: ((alert: RoundTripAlert) => void) | undefined;
  /** Every finished request: its method, round-trip time and whether the peer answered with an error. */
  onSample?: ((sample: { method: string; ms: number; ok: boolean }) => void) | undefined;
  /** Clock in ms. Default `performance.now`. */
  now?: (() => number) | undefined;
}

/**
 * An interceptor that measures the round-trip time of every request this side sends (request out →
 * response in, errors and timeouts included), per method, and alerts when a method's p95 over the
 * window crosses `thresholdMs` (and again when it recovers).
 *
 * @example
 * ```ts
 * const metrics = roundTripMetrics({ thresholdMs: 500, onAlert: (alert) => console.warn(alert) });
 * client.use(metrics);
 * await client.callTool({ name: 'search', arguments: { q: 'mcp' } });
 * console.log(metrics.snapshot()['tools/call']); // { count: 1, errors: 0, p50Ms: …, p95Ms: …, maxMs: … }
 * ```
 */
export interface RoundTripMetrics extends Interceptor {
  outgoingRequest(
    call: OutgoingRequestCall,
    next: (call: OutgoingRequestCall) => Promise<unknown>,
  ): Promise<unknown>;
  /** Per method, the window as it stands. */
  snapshot(): Record<string, RoundTripStats>;
}

interface Window {
  at: number[];
  ms: number[];
  errors: number;
  alerting: boolean;
}

/**
 * Builds a {@link RoundTripMetrics} interceptor; install it with `client.use(...)` (or a server's, for
 * its requests to clients).
 *
 * @example
 * ```ts
 * client.use(roundTripMetrics({ thresholdMs: 250, onAlert: ({ method, p95Ms }) => log.warn({ method, p95Ms }) }));
 * ```
 */
export function roundTripMetrics(options: RoundTripMetricsOptions = {}): RoundTripMetrics {
  const windowMs = options.windowMs ?? DEFAULT_METRICS_WINDOW_MS;
  const maxSamples = options.maxSamples ?? DEFAULT_METRICS_MAX_SAMPLES;
  const minSamples = options.minSamples ?? DEFAULT_METRICS_MIN_SAMPLES;
  const threshold = options.thresholdMs;
  const now = options.now ?? (() => performance.now());
  // Keyed by method names from our own calls; a Map, so no name can reach a prototype.
  const windows = new Map<string, Window>();

  const prune = (window: Window, at: number): void => {
    let drop = 0;
    while (
      drop < window.at.length &&
      ((window.at[drop] as number) < at - windowMs || window.at.length - drop > maxSamples)
    )
      drop++;
    if (drop > 0) {
      window.at.splice(0, drop);
      window.ms.splice(0, drop);
    }
  };

  const record = (method: string, started: number, ok: boolean): void => {
    const at = now();
    const ms = at - started;
    let window = windows.get(method);
    if (window === undefined) {
      window = { at: [], ms: [], errors: 0, alerting: false };
      windows.set(method, window);
    }
    window.at.push(at);
    window.ms.push(ms);
    if (!ok) window.errors++;
    prune(window, at);
    options.onSample?.({ method, ms, ok });
    if (threshold === undefined || options.onAlert === undefined || window.ms.length < minSamples) return;
    const p95 = percentile(window.ms, 0.95);
    const above = p95 > threshold;
    if (above === window.alerting) return;
    window.alerting = above;
    options.onAlert({
      method,
      state: above ? 'above' : 'recovered',
      p95Ms: p95,
      thresholdMs: threshold,
      samples: window.ms.length,
    });
  };

  return {
    async outgoingRequest(call, next) {
      const started = now();
      try {
        const result = await next(call);
        record(call.request.method, started, true);
        return result;
      } catch (error) {
        record(call.request.method, started, false);
        throw error;
      }
    },
    snapshot() {
      const at = now();
      const stats: Record<string, RoundTripStats> = Object.create(null);
      for (const [method, window] of windows) {
        prune(window, at);
        stats[method] = {
          count: window.ms.length,
          errors: window.errors,
          p50Ms: percentile(window.ms, 0.5),
          p95Ms: percentile(window.ms, 0.95),
          maxMs: window.ms.length === 0 ? 0 : Math.max(...window.ms),
        };
      }
      return stats;
    },
  };
}

/** Nearest-rank percentile of `values` (0 for none). */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}
