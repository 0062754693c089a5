import { MIB } from '../payload.js';
import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';
import { CpuWindow } from './cpu-window.js';

/** W3: sequential calls of a tool returning 1 MiB of text: bulk throughput. */
export async function runW3(context: WorkloadContext): Promise<Metrics> {
  const { w3Warmup, w3Calls } = context.counts;
  const session = await context.connect();
  for (let i = 0; i < w3Warmup; i++) await session.big();
  const window = await CpuWindow.open(context);
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < w3Calls; i++) bytes += await session.big();
  const elapsedMs = performance.now() - started;
  const usage = await window.close(w3Calls);
  await session.close();
  return { mibPerSec: bytes / MIB / (elapsedMs / 1000), ...usage };
}
