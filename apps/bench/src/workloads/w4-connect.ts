import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';

/**
 * W4: sequential connect + handshake (`initialize` + `initialized`); for a handshake-free client
 * (2026-07-28 era), connect + first request. Only that is timed; each session is closed before the
 * next, outside the clock. On stdio each connect spawns a server.
 */
export async function runW4(context: WorkloadContext): Promise<Metrics> {
  const stdio = context.transport === 'stdio';
  const count = stdio ? context.counts.w4StdioConnects : context.counts.w4Connects;
  const warmup = Math.max(1, Math.floor(count / 10));
  let connectMs = 0;
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    const session = await context.connect();
    if (context.handshakeFree) await session.echo();
    if (i >= warmup) connectMs += performance.now() - started;
    await session.close();
  }
  return { connectsPerSec: (count * 1000) / connectMs };
}
