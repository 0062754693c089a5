import type { BenchSession } from '../adapters/types.js';
import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';
import { CpuWindow } from './cpu-window.js';

/** Sessions opened at once while W5 builds up its population (a burst, not a thundering herd). */
const OPEN_BATCH = 20;

/**
 * W5: many sessions open at once, each making a few calls in parallel with the others; the server's
 * memory growth per open session is read after GC while they are all still open.
 */
export async function runW5(context: WorkloadContext): Promise<Metrics> {
  const { w5Sessions, w5CallsPerSession } = context.counts;
  const warm = await context.connect();
  for (let i = 0; i < 20; i++) await warm.echo();
  await warm.close();
  await new Promise((resolve) => setTimeout(resolve, 50));

  const before = await context.serverStats(true);
  const sessions: BenchSession[] = [];
  while (sessions.length < w5Sessions) {
    const batch = Math.min(OPEN_BATCH, w5Sessions - sessions.length);
    sessions.push(...(await Promise.all(Array.from({ length: batch }, () => context.connect()))));
  }
  const window = await CpuWindow.open(context);
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = 0; i < w5CallsPerSession; i++) await session.echo();
    }),
  );
  const elapsedMs = performance.now() - started;
  const calls = w5Sessions * w5CallsPerSession;
  const usage = await window.close(calls);
  const after = await context.serverStats(true);
  await Promise.all(sessions.map((session) => session.close().catch(() => {})));
  const perSession = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined || b === undefined ? undefined : (b - a) / w5Sessions / 1024;
  const metrics: Metrics = { callsPerSec: (calls * 1000) / elapsedMs, ...usage };
  const rss = perSession(before?.rss, after?.rss);
  const heap = perSession(before?.heapUsed, after?.heapUsed);
  if (rss !== undefined) metrics.rssPerSessionKiB = rss;
  if (heap !== undefined) metrics.heapPerSessionKiB = heap;
  return metrics;
}
