// Measures what one GET-stream message costs a process on Redis, sequentially as the transport sends
// them (one at a time per stream): `storeEventAndPublish` (one Lua script, one round trip) against
// `storeEvent` then `publish` (two round trips), time from the call to the subscriber's delivery,
// interleaved in blocks so load on the machine spreads over both. Usage (after building):
// node packages/redis/scripts/measure-round-trip.mjs redis://127.0.0.1:6379 [messages per block]
// Writes keys and channels under the prefix rt: — point it at a scratch Redis.
import { createClient } from 'redis';
import { RedisEventStore, RedisMessageBus } from '@x/redis';
const client = await createClient({ url: process.argv[2] }).connect();
const perBlock = Number(process.argv[3] ?? 2_000);
const store = new RedisEventStore({ client, prefix: 'rt:' });
const bus = new RedisMessageBus({ client, prefix: 'rt:' });
const message = {
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 'x'.repeat(100) },
};
let delivered;
await bus.subscribe('stream:s.g', () => delivered?.());
const arrival = () => new Promise((resolve) => (delivered = resolve));
const ways = {
  oneStep: () => store.storeEventAndPublish('s.g', message, bus, 'stream:s.g'),
  twoSteps: async () => {
    const e = await store.storeEvent('s.g', message);
    await bus.publish('stream:s.g', { e, m: message });
  },
};
const samples = { oneStep: [], twoSteps: [] };
for (let block = 0; block < 6; block++) {
  for (const [name, send] of Object.entries(ways)) {
    for (let i = 0; i < perBlock; i++) {
      const t0 = performance.now();
      const arrived = arrival();
      await send();
      await arrived;
      if (block > 0) samples[name].push(performance.now() - t0); // block 0 warms up
    }
  }
}
const at = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const report = {};
for (const [name, list] of Object.entries(samples)) {
  list.sort((a, b) => a - b);
  report[name] = { messages: list.length, p50Ms: +at(list, 50).toFixed(3), p99Ms: +at(list, 99).toFixed(3) };
}
console.log(JSON.stringify(report));
await bus.close();
client.destroy();
