import type { BenchSession } from '../adapters/types.js';
import { percentile } from '../stats.js';
import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';
import { CpuWindow } from './cpu-window.js';

/** W2: `inFlight` echo calls outstanding at all times on one session. */
export async function runW2(context: WorkloadContext, warmup = context.counts.w2Warmup): Promise<Metrics> {
  const { w2Calls, w2InFlight } = context.counts;
  const session = await context.connect();
  await saturate(session, warmup, w2InFlight, undefined);
  const latencies = new Float64Array(w2Calls);
  const window = await CpuWindow.open(context);
  const started = performance.now();
  await saturate(session, w2Calls, w2InFlight, latencies);
  const elapsedMs = performance.now() - started;
  const usage = await window.close(w2Calls);
  await session.close();
  return {
    callsPerSec: (w2Calls * 1000) / elapsedMs,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...usage,
  };
}

/** Keeps `inFlight` calls outstanding until `total` have completed. */
async function saturate(
  session: BenchSession,
  total: number,
  inFlight: number,
  latencies: Float64Array | undefined,
): Promise<void> {
  let issued = 0;
  const lane = async (): Promise<void> => {
    while (issued < total) {
      const index = issued++;
      const t = performance.now();
      await session.echo();
      if (latencies !== undefined) latencies[index] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
}
