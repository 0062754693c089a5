import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@x/protocol';
import {
  type RedisClusterHandle,
  type RedisServerHandle,
  startRedis,
  startRedisCluster,
  waitFor,
} from '@x/test-kit';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectRedisCluster,
  DEFAULT_PUB_SUB,
  type RedisClusterClient,
  type RedisNodeClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSubscriptionFanOut,
} from '../src/index.js';
import { keySlot } from '../src/key-slot.js';

// Issue #41: sharded pub/sub on a Redis Cluster. A message crosses only the shard that owns its
// channel's slot: SPUBLISH to that primary, SSUBSCRIBE there. Proven with a subscriber in another
// process (fixtures/bus-subscriber.mjs, on the built package: `pnpm turbo run build --filter=@x/redis...`
// first when running this file alone) and with each node's `INFO commandstats` and `PUBSUB SHARDNUMSUB`.

const SUBSCRIBER = fileURLToPath(new URL('./fixtures/bus-subscriber.mjs', import.meta.url));

let cluster: RedisClusterHandle;
let single: RedisServerHandle;
let client: RedisClusterClient;
let singleClient: RedisNodeClient;
/** One plain connection per cluster node, for INFO and PUBSUB. */
const admins = new Map<number, RedisNodeClient>();
const cleanup: Array<() => Promise<void>> = [];
let prefixes = 0;
const prefix = (): string => `sh${prefixes++}:`;

beforeAll(async () => {
  [cluster, single] = await Promise.all([startRedisCluster(), startRedis()]);
  client = await connectRedisCluster({ rootNodes: cluster.nodes.map((node) => node.url) });
  singleClient = await createClient({ url: single.url }).connect();
  for (const node of cluster.nodes) admins.set(node.port, await createClient({ url: node.url }).connect());
}, 60_000);

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close().catch(() => undefined);
});

afterAll(async () => {
  for (const admin of admins.values()) admin.destroy();
  client?.destroy();
  singleClient?.destroy();
  await cluster?.stop();
  await single?.stop();
});

/** Calls per command on each node since it started (our own INFO reads left out). */
async function commandStats(): Promise<Map<number, Record<string, number>>> {
  const out = new Map<number, Record<string, number>>();
  for (const [port, admin] of admins) {
    const stats: Record<string, number> = Object.create(null);
    for (const match of (await admin.info('commandstats')).matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) {
      if (match[1] !== 'info') stats[match[1] as string] = Number(match[2]);
    }
    out.set(port, stats);
  }
  return out;
}

/** `command`'s calls on each node between two samples. */
function callsOf(
  command: string,
  before: Map<number, Record<string, number>>,
  after: Map<number, Record<string, number>>,
): Map<number, number> {
  const out = new Map<number, number>();
  for (const [port, stats] of after)
    out.set(port, (stats[command] ?? 0) - (before.get(port)?.[command] ?? 0));
  return out;
}

/** The port of the primary that owns `channel`'s slot. */
const ownerOf = (channel: string): number => client.getSlotMaster(keySlot(channel)).port;

interface Subscriber {
  child: ChildProcess;
  received: unknown[];
}

/** A bus subscriber in another process, ready once it said so. */
async function subscriberProcess(args: string[]): Promise<Subscriber> {
  const child = spawn(process.execPath, [SUBSCRIBER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  cleanup.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  const received: unknown[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      const value = JSON.parse(line) as unknown;
      if ((value as { ready?: boolean }).ready === true) resolve();
      else received.push(value);
    });
    child.once('exit', (code) => reject(new Error(`the subscriber exited (${code}):\n${stderr}`)));
  });
  return { child, received };
}

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: { n } },
});

describe('sharded pub/sub on a Redis Cluster (pubSub: auto)', () => {
  it("defaults to 'auto'", () => {
    expect(DEFAULT_PUB_SUB).toBe('auto');
  });

  it('a message published here reaches a subscriber in another process, in order, through the one shard that owns the channel', async () => {
    const p = prefix();
    const topic = 'session:s-1';
    const channel = `${p}bus:session:{s-1}`;
    const other = await subscriberProcess(['cluster', cluster.nodes.map((n) => n.url).join(','), p, topic]);
    const owner = ownerOf(channel);
    // The subscription is a shard subscription on the owning primary, and a classic one nowhere.
    const owners = admins.get(owner) as RedisNodeClient;
    expect(await owners.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])).toEqual([channel, 1]);
    for (const admin of admins.values())
      expect(await admin.sendCommand(['PUBSUB', 'NUMSUB', channel])).toEqual([channel, 0]);

    const bus = new RedisMessageBus({ client, prefix: p });
    cleanup.push(() => bus.close());
    const before = await commandStats();
    const sent = Array.from({ length: 300 }, (_, n) => n);
    await Promise.all(sent.map((n) => bus.publish(topic, { n })));
    await waitFor(() => other.received.length >= sent.length, {
      timeoutMs: 20_000,
      what: `${sent.length} messages in the other process`,
    });
    expect(other.received).toEqual(sent.map((n) => ({ n })));
    const after = await commandStats();
    const spublish = callsOf('spublish', before, after);
    expect(spublish.get(owner)).toBe(sent.length);
    for (const [port, calls] of spublish) if (port !== owner) expect(calls).toBe(0);
    for (const calls of callsOf('publish', before, after).values()) expect(calls).toBe(0);
  }, 60_000);

  it("storeEventAndPublish SPUBLISHes inside its script, on the stream's primary, in one round trip", async () => {
    const p = prefix();
    const store = new RedisEventStore({ client, prefix: p });
    const bus = new RedisMessageBus({ client, prefix: p });
    cleanup.push(() => bus.close());
    const heard: unknown[] = [];
    await bus.subscribe('stream:g-1', (payload) => heard.push(payload));
    const owner = ownerOf(`${p}events:{g-1}`);
    // The channel shares the stream key's slot: a cluster refuses a script's SPUBLISH elsewhere.
    expect(ownerOf(`${p}bus:stream:{g-1}`)).toBe(owner);
    // The first one loads the script into the primary's cache (EVALSHA answers NOSCRIPT, then EVAL).
    const first = await store.storeEventAndPublish('g-1', note(-1), bus, 'stream:g-1');
    await waitFor(() => heard.length === 1, { what: 'the first event' });
    const before = await commandStats();
    const ids: string[] = [];
    for (let n = 0; n < 20; n++)
      ids.push(await store.storeEventAndPublish('g-1', note(n), bus, 'stream:g-1'));
    await waitFor(() => heard.length === 21, { what: '20 stored and published events' });
    expect(heard).toEqual([{ e: first, m: note(-1) }, ...ids.map((e, n) => ({ e, m: note(n) }))]);
    const after = await commandStats();
    const scripts = (port: number): number =>
      (callsOf('evalsha', before, after).get(port) ?? 0) + (callsOf('eval', before, after).get(port) ?? 0);
    expect(scripts(owner)).toBe(20);
    expect(callsOf('spublish', before, after).get(owner)).toBe(20);
    for (const calls of callsOf('publish', before, after).values()) expect(calls).toBe(0);
  }, 30_000);

  it('the change fan-out is one shard channel too: every subscriber hears each notice once', async () => {
    const p = prefix();
    const fanOuts = [0, 1, 2].map(() => new RedisSubscriptionFanOut({ client, prefix: p }));
    for (const fanOut of fanOuts) cleanup.push(() => fanOut.close());
    const heard: string[][] = fanOuts.map(() => []);
    for (const [i, fanOut] of fanOuts.entries())
      await fanOut.subscribe((notice) =>
        heard[i]?.push(notice.kind === 'resource' ? notice.uri : notice.kind),
      );
    const channel = `${p}bus:{changes}`;
    const owners = admins.get(ownerOf(channel)) as RedisNodeClient;
    expect(await owners.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])).toEqual([channel, 3]);
    await fanOuts[0]?.publish({ kind: 'resource', uri: 'note://a' });
    await fanOuts[1]?.publish({ kind: 'tools' });
    await waitFor(() => heard.every((list) => list.length === 2), { what: 'two notices on each' });
    expect(heard).toEqual([0, 1, 2].map(() => ['note://a', 'tools']));
  });

  it("pubSub: 'classic' keeps PUBLISH/SUBSCRIBE on a cluster", async () => {
    const p = prefix();
    const bus = new RedisMessageBus({ client, prefix: p, pubSub: 'classic' });
    cleanup.push(() => bus.close());
    const heard: unknown[] = [];
    await bus.subscribe('session:c', (payload) => heard.push(payload));
    const before = await commandStats();
    for (let n = 0; n < 5; n++) await bus.publish('session:c', { n });
    await waitFor(() => heard.length === 5, { what: 'five classic messages' });
    const after = await commandStats();
    const owner = ownerOf(`${p}bus:session:{c}`);
    expect(callsOf('publish', before, after).get(owner)).toBe(5);
    for (const calls of callsOf('spublish', before, after).values()) expect(calls).toBe(0);
  });
});

describe('pub/sub on one redis-server', () => {
  async function publishes(bus: RedisMessageBus, topic: string): Promise<Record<string, number>> {
    const heard: unknown[] = [];
    await bus.subscribe(topic, (payload) => heard.push(payload));
    const stats = async () => {
      const out: Record<string, number> = Object.create(null);
      for (const m of (await singleClient.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm))
        out[m[1] as string] = Number(m[2]);
      return out;
    };
    const before = await stats();
    for (let n = 0; n < 3; n++) await bus.publish(topic, { n });
    await waitFor(() => heard.length === 3, { what: 'three messages' });
    expect(heard).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    const after = await stats();
    return {
      publish: (after['publish'] ?? 0) - (before['publish'] ?? 0),
      spublish: (after['spublish'] ?? 0) - (before['spublish'] ?? 0),
    };
  }

  it("'auto' is classic there (nothing to shard); 'sharded' works too on Redis 7", async () => {
    const auto = new RedisMessageBus({ client: singleClient, prefix: prefix() });
    const sharded = new RedisMessageBus({ client: singleClient, prefix: prefix(), pubSub: 'sharded' });
    cleanup.push(
      () => auto.close(),
      () => sharded.close(),
    );
    expect(await publishes(auto, 'session:a')).toEqual({ publish: 3, spublish: 0 });
    expect(await publishes(sharded, 'session:b')).toEqual({ publish: 0, spublish: 3 });
  });
});
