// Measures Redis memory per legacy session record and per stored event (used_memory delta).
// Usage (after building): node packages/redis/scripts/measure-memory.mjs redis://127.0.0.1:6379
// Writes keys under the prefix m: — point it at a scratch Redis.
import { createClient } from 'redis';
import { RedisEventStore, RedisSessionStore } from '@x/redis';
const client = await createClient({ url: process.argv[2] }).connect();
const used = async () => Number((await client.info('memory')).match(/used_memory:(\d+)/)[1]);
const sessions = new RedisSessionStore({ client, prefix: 'm:' });
const N = 10_000;
let before = await used();
for (let i = 0; i < N; i++) {
  const id = `session-${i}-${'x'.repeat(12)}`;
  await sessions.create(id, { principal: 'client-1:alice', streamTag: 'a1b2c3d4e5f6' });
  await sessions.update(id, {
    protocolVersion: '2025-11-25',
    clientInfo: { name: 'inspector', version: '1.2.3' },
    clientCapabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
    logLevel: 'info',
  });
}
const perSession = ((await used()) - before) / N;
const events = new RedisEventStore({ client, prefix: 'm:' });
const message = {
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 'x'.repeat(100) },
};
before = await used();
for (let s = 0; s < 100; s++) for (let i = 0; i < 100; i++) await events.storeEvent(`stream-${s}.g`, message);
const perEvent = ((await used()) - before) / 10_000;
console.log(
  JSON.stringify({
    perSession: Math.round(perSession),
    perEvent: Math.round(perEvent),
    eventPayloadBytes: JSON.stringify(message).length,
  }),
);
client.destroy();
