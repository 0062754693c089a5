// Messages per second through the bus (issue #41's capacity model): `storeEventAndPublish` (the GET-stream
// hot path: XADD + PEXPIRE + (S)PUBLISH in one script) from one producer client to a subscriber client,
// over many streams at once, on one redis-server, on a 3-primary Redis Cluster (sharded pub/sub) and on
// a Sentinel set. Also, per message, which commands ran on how many nodes (`INFO commandstats`).
// Starts its own Redis processes on free loopback ports. Usage (after building @x/redis):
// node packages/redis/scripts/measure-bus-throughput.mjs [messages 20000] [streams 200] [in flight 64]
import { startRedis, startRedisCluster, startRedisSentinel } from '@x/test-kit/redis-server';
import { createClient } from 'redis';
import {
  connectRedis,
  connectRedisCluster,
  connectRedisSentinel,
  RedisEventStore,
  RedisMessageBus,
} from '@x/redis';

const messages = Number(process.argv[2] ?? 20_000);
const streams = Number(process.argv[3] ?? 200);
const inFlight = Number(process.argv[4] ?? 64);
const message = {
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 'x'.repeat(100) },
};

async function stats(urls) {
  const out = {};
  for (const url of urls) {
    const admin = await createClient({ url }).connect();
    for (const m of (await admin.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) {
      out[m[1]] ??= {};
      out[m[1]][url] = Number(m[2]);
    }
    admin.destroy();
  }
  return out;
}

async function run(name, connect, urls) {
  const [producer, holder] = await Promise.all([connect(), connect()]);
  const store = new RedisEventStore({ client: producer, prefix: 'tp:' });
  const bus = new RedisMessageBus({ client: producer, prefix: 'tp:' });
  const holderBus = new RedisMessageBus({ client: holder, prefix: 'tp:' });
  const sentAt = new Map();
  const latencies = [];
  let received = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  for (let s = 0; s < streams; s++) {
    await holderBus.subscribe(`stream:s${s}`, (payload) => {
      const t0 = sentAt.get(payload.e);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
      if (++received === messages) done();
    });
  }
  // Warm-up: the script into every primary's cache.
  for (let s = 0; s < streams; s++) await store.storeEventAndPublish(`s${s}`, message, bus, `stream:s${s}`);
  await new Promise((resolve) => {
    const check = () => (received >= streams ? resolve() : setTimeout(check, 5));
    check();
  });
  received = 0;
  const before = await stats(urls);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < messages) {
        const n = next++;
        const t0 = performance.now();
        const id = await store.storeEventAndPublish(
          `s${n % streams}`,
          message,
          bus,
          `stream:s${n % streams}`,
        );
        sentAt.set(id, t0);
      }
    }),
  );
  await all;
  const seconds = (performance.now() - started) / 1000;
  const after = await stats(urls);
  const perMessage = {};
  for (const [cmd, byNode] of Object.entries(after)) {
    let total = 0;
    let nodes = 0;
    for (const [url, calls] of Object.entries(byNode)) {
      const d = calls - (before[cmd]?.[url] ?? 0);
      total += d;
      if (d > 0) nodes++;
    }
    if (total >= messages / 2) perMessage[cmd] = { perMessage: +(total / messages).toFixed(2), nodes };
  }
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const row = {
    setup: name,
    messagesPerSec: Math.round(messages / seconds),
    p50Ms: +at(50).toFixed(2),
    p99Ms: +at(99).toFixed(2),
    commands: perMessage,
  };
  await holderBus.close();
  await bus.close();
  await Promise.all([producer.close(), holder.close()]);
  return row;
}

const rows = [];
{
  const redis = await startRedis();
  try {
    rows.push(
      await run('one redis-server (classic pub/sub)', () => connectRedis({ url: redis.url }), [redis.url]),
    );
  } finally {
    await redis.stop();
  }
}
{
  const cluster = await startRedisCluster();
  const urls = cluster.nodes.map((node) => node.url);
  try {
    rows.push(
      await run(
        'Redis Cluster, 3 primaries + 3 replicas (sharded pub/sub)',
        () => connectRedisCluster({ rootNodes: urls }),
        urls,
      ),
    );
  } finally {
    await cluster.stop();
  }
}
{
  const set = await startRedisSentinel();
  try {
    rows.push(
      await run(
        'Sentinel: a primary, a replica, 3 sentinels (classic pub/sub)',
        () => connectRedisSentinel({ name: set.name, sentinels: set.sentinelRootNodes }),
        set.servers.map((server) => server.url),
      ),
    );
  } finally {
    await set.stop();
  }
}
process.stdout.write(`${JSON.stringify({ messages, streams, inFlight, rows }, null, 2)}\n`);
