import { percentile } from '../stats.js';
import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';
import { CpuWindow } from './cpu-window.js';

/** W1: sequential echo calls after a warm-up: throughput and latency of one call at a time. */
export async function runW1(context: WorkloadContext, warmup = context.counts.w1Warmup): Promise<Metrics> {
  const { w1Calls } = context.counts;
  const session = await context.connect();
  for (let i = 0; i < warmup; i++) await session.echo();
  const latencies = new Float64Array(w1Calls);
  const window = await CpuWindow.open(context);
  const started = performance.now();
  for (let i = 0; i < w1Calls; i++) {
    const t = performance.now();
    await session.echo();
    latencies[i] = performance.now() - t;
  }
  const elapsedMs = performance.now() - started;
  const usage = await window.close(w1Calls);
  await session.close();
  return {
    callsPerSec: (w1Calls * 1000) / elapsedMs,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...usage,
  };
}
