/**
 * W7's client process: `node dist/short-session.js '<ShortSessionSpec JSON>'`. Connects (over stdio:
 * spawns the server), makes `calls` sequential echo calls, closes, prints `RESULT <json>` and exits.
 * Only the SDK's client side is loaded, as in a program that is only a client.
 */
import { loadConnect } from './adapters/load-adapter.js';
import {
  SHORT_SESSION_RESULT_PREFIX,
  type ShortSessionResult,
  type ShortSessionSpec,
} from './short-session-spec.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as ShortSessionSpec;
try {
  const connect = await loadConnect(spec.sdk);
  const session = await connect(spec.target);
  await session.echo();
  const firstCallMs = performance.timeOrigin + performance.now() - spec.spawnedAt;
  for (let i = 1; i < spec.calls; i++) await session.echo();
  await session.close();
  const cpu = process.cpuUsage();
  const result: ShortSessionResult = { firstCallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  // Exit at once, as every column does: a client library's lingering keep-alive timers or sockets are
  // not part of the session.
  process.stdout.write(`${SHORT_SESSION_RESULT_PREFIX}${JSON.stringify(result)}\n`, () => process.exit(0));
} catch (error) {
  console.error(`[bench short session ${spec.sdk}/${spec.target.transport}]`, error);
  process.exit(1);
}
