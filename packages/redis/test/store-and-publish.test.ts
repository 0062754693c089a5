import { Client } from '@x/client';
import {
  type EventStore,
  InMemoryEventStore,
  InMemoryMessageBus,
  InMemorySessionStore,
  InMemorySubscriptionFanOut,
  type JSONRPCMessage,
  type MessageBus,
} from '@x/protocol';
import { type RedisServerHandle, startRedis, waitFor } from '@x/test-kit';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisClient,
  type RedisNodeClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
} from '../src/index.js';
import { startBalancer } from '@x/test-kit/balancer';
import { type ClusterNode, type SharedState, startNode } from './fixtures/cluster-node.js';

// Issue #27: "one Redis round trip per forwarded message". A GET-stream message raised in shared mode is
// stored (for Last-Event-ID) and published (for the process holding the stream): with `@x/redis` on one
// client, `RedisEventStore.storeEventAndPublish` does both in one Lua script. Round trips are counted on
// the server with `INFO commandstats`, which counts a script's EVALSHA and also each command the script
// runs: N messages in one round trip each are exactly `evalsha N, xadd N, pexpire N, publish N`, and a
// separate XADD or PUBLISH (or a MULTI … EXEC) would show up on top.

let redis: RedisServerHandle;
let client: RedisNodeClient;
let prefixes = 0;
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedis();
  client = await createClient({ url: redis.url }).connect();
}, 30_000);

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

afterAll(async () => {
  client?.destroy();
  await redis?.stop();
});

const prefix = (): string => `p${prefixes++}:`;

/** Calls per command since the server started, less our own `INFO` reads. */
async function commandStats(): Promise<Record<string, number>> {
  const stats: Record<string, number> = Object.create(null);
  for (const match of (await client.info('commandstats')).matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) {
    if (match[1] !== 'info') stats[match[1] as string] = Number(match[2]);
  }
  return stats;
}

function delta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, calls] of Object.entries(after)) {
    const d = calls - (before[name] ?? 0);
    if (d !== 0) out[name] = d;
  }
  return out;
}

async function commandsOf(run: () => Promise<void>): Promise<Record<string, number>> {
  const before = await commandStats();
  await run();
  return delta(await commandStats(), before);
}

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  // `/`, `"` and non-ASCII: Lua's cjson would write `\/`; the script must not re-encode anything.
  params: { level: 'info', data: { n, path: 'a/b', quote: '"x"', text: 'héllo ✓' } },
});

/** A raw subscriber on one channel: the exact text published there. */
async function rawChannel(channel: string): Promise<string[]> {
  const texts: string[] = [];
  const subscriber = client.duplicate();
  await subscriber.connect();
  await subscriber.subscribe(channel, (text) => texts.push(text));
  cleanup.push(async () => subscriber.destroy());
  return texts;
}

function newBus(options: { client: RedisClient; prefix: string }): RedisMessageBus {
  const bus = new RedisMessageBus(options);
  cleanup.push(() => bus.close());
  return bus;
}

describe('RedisEventStore.storeEventAndPublish', () => {
  it('stores and publishes each message in ONE round trip (one EVALSHA) when the bus is on the same client', async () => {
    // Different prefixes: the stream key is the store's, the channel the bus's.
    const storePrefix = prefix();
    const busPrefix = prefix();
    const store = new RedisEventStore({
      client,
      prefix: storePrefix,
      maxEventsPerStream: 3,
      streamTtlMs: 60_000,
    });
    const bus = newBus({ client, prefix: busPrefix });
    // A stream id JSON must escape, to check the payload's event id is written as JSON.stringify does.
    const streamId = 'odd "id" \\ / é.g';
    const topic = `stream:${streamId}`;
    // The channel's hash tag is the topic's id (issue #41), so it shares the stream key's slot.
    const texts = await rawChannel(`${busPrefix}bus:stream:{${streamId}}`);
    const payloads: unknown[] = [];
    await bus.subscribe(topic, (payload) => payloads.push(payload));

    // First use on this server (and after a restart or SCRIPT FLUSH): EVALSHA misses, EVAL caches it.
    await client.scriptFlush();
    const ids: string[] = [];
    const first = await commandsOf(async () => {
      ids.push(await store.storeEventAndPublish(streamId, note(0), bus, topic));
    });
    expect(first).toMatchObject({ eval: 1, xadd: 1, pexpire: 1, publish: 1 });

    const used = await commandsOf(async () => {
      for (let n = 1; n <= 5; n++) ids.push(await store.storeEventAndPublish(streamId, note(n), bus, topic));
    });
    // One round trip per message: nothing but the script and the three commands it runs.
    expect(used).toEqual({ evalsha: 5, xadd: 5, pexpire: 5, publish: 5 });

    await waitFor(() => texts.length === 6 && payloads.length === 6, { what: 'six published events' });
    // Byte for byte what RedisMessageBus.publish would send, decoded by its subscribers as before.
    expect(texts).toEqual(ids.map((e, n) => JSON.stringify({ e, m: note(n) })));
    expect(payloads).toEqual(ids.map((e, n) => ({ e, m: note(n) })));
    for (const id of ids) expect(await store.getStreamIdForEventId(id)).toBe(streamId);

    // MAXLEN and TTL as storeEvent sets them.
    const key = `${storePrefix}events:{${streamId}}`;
    expect(await client.xLen(key)).toBe(3);
    const ttl = await client.pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // The ids resume the stream like storeEvent's.
    const replayed: Array<[string, JSONRPCMessage]> = [];
    expect(
      await store.replayEventsAfter(ids[3] as string, { send: (id, m) => void replayed.push([id, m]) }),
    ).toBe(streamId);
    expect(replayed).toEqual([
      [ids[4], note(4)],
      [ids[5], note(5)],
    ]);
  });

  it('stores, then publishes, when the bus is on another client or is not a Redis bus', async () => {
    const shared = prefix();
    const store = new RedisEventStore({ client, prefix: shared });
    const other = client.duplicate();
    await other.connect();
    cleanup.push(async () => other.destroy());
    const elsewhere = newBus({ client: other, prefix: shared });
    const local = new InMemoryMessageBus();
    const viaRedis: unknown[] = [];
    const viaMemory: unknown[] = [];
    await elsewhere.subscribe('stream:x.g', (payload) => viaRedis.push(payload));
    await local.subscribe('stream:x.g', (payload) => viaMemory.push(payload));

    let first = '';
    const redisBus = await commandsOf(async () => {
      first = await store.storeEventAndPublish('x.g', note(1), elsewhere, 'stream:x.g');
    });
    expect(redisBus).toEqual({ multi: 1, exec: 1, xadd: 1, pexpire: 1, publish: 1 });
    let second = '';
    const memoryBus = await commandsOf(async () => {
      second = await store.storeEventAndPublish('x.g', note(2), local, 'stream:x.g');
    });
    expect(memoryBus).toEqual({ multi: 1, exec: 1, xadd: 1, pexpire: 1 });
    await waitFor(() => viaRedis.length === 1, { what: 'the payload through the other client' });
    expect(viaRedis).toEqual([{ e: first, m: note(1) }]);
    expect(viaMemory).toEqual([{ e: second, m: note(2) }]);
  });
});

describe('a Redis user without +@scripting (ACL)', () => {
  it('falls back to store-then-publish on NOPERM, once, and every message is still stored and delivered exactly once', async () => {
    await client.sendCommand([
      'ACL',
      'SETUSER',
      'noscript',
      'on',
      '>secret',
      '~*',
      '&*',
      '+@all',
      '-@scripting',
    ]);
    cleanup.push(async () => {
      await client.sendCommand(['ACL', 'DELUSER', 'noscript']);
    });
    const limited = createClient({ url: redis.url, username: 'noscript', password: 'secret' });
    await limited.connect();
    cleanup.push(async () => limited.destroy());
    const shared = prefix();
    const store = new RedisEventStore({ client: limited, prefix: shared });
    const bus = newBus({ client: limited, prefix: shared });
    const received: unknown[] = [];
    await bus.subscribe('stream:n.g', (payload) => received.push(payload));

    const ids: string[] = [];
    const commands = await commandsOf(async () => {
      for (let n = 1; n <= 3; n++)
        ids.push(await store.storeEventAndPublish('n.g', note(n), bus, 'stream:n.g'));
    });
    // The first EVALSHA is refused (Redis counts it as failed, not as a call); then two steps each.
    expect(commands).toEqual({ multi: 3, exec: 3, xadd: 3, pexpire: 3, publish: 3 });
    await waitFor(() => received.length === 3, { what: 'three payloads' });
    expect(received).toEqual(ids.map((e, i) => ({ e, m: note(i + 1) })));
    const replayed: string[] = [];
    await store.replayEventsAfter(ids[0]!, { send: (eventId) => void replayed.push(eventId) });
    expect(replayed).toEqual(ids.slice(1));
  });
});

/** Counts what the transport asks of the event store and the bus for GET streams (`….g`, `stream:…`). */
function counting(store: EventStore, bus: MessageBus) {
  const counts = { storeEvent: 0, storeEventAndPublish: 0, publish: 0 };
  const countingStore: EventStore = {
    storeEvent: (streamId, message) => {
      if (streamId.endsWith('.g') && message !== undefined) counts.storeEvent++;
      return store.storeEvent(streamId, message);
    },
    replayEventsAfter: (lastEventId, sink) => store.replayEventsAfter(lastEventId, sink),
  };
  if (store.getStreamIdForEventId !== undefined) {
    const get = store.getStreamIdForEventId.bind(store);
    countingStore.getStreamIdForEventId = (eventId) => get(eventId);
  }
  if (store.storeEventAndPublish !== undefined) {
    const both = store.storeEventAndPublish.bind(store);
    countingStore.storeEventAndPublish = (streamId, message, target, topic) => {
      counts.storeEventAndPublish++;
      // The bus itself, so @x/redis can tell it shares the store's client.
      return both(streamId, message, target === countingBus ? bus : target, topic);
    };
  }
  const countingBus: MessageBus = {
    publish: (topic, payload) => {
      if (topic.startsWith('stream:')) counts.publish++;
      return bus.publish(topic, payload);
    },
    subscribe: (topic, listener) => bus.subscribe(topic, listener),
  };
  return { counts, store: countingStore, bus: countingBus };
}

const stores: Record<string, () => { state: SharedState; counts: ReturnType<typeof counting>['counts'] }> = {
  // No storeEventAndPublish: the transport stores, then publishes (the fallback).
  'in-memory': () => {
    const { counts, store, bus } = counting(new InMemoryEventStore(), new InMemoryMessageBus());
    const state = {
      sessionStore: new InMemorySessionStore(),
      eventStore: store,
      fanOut: new InMemorySubscriptionFanOut(),
      messageBus: bus,
    };
    return { state, counts };
  },
  redis: () => {
    const p = prefix();
    const fanOut = new RedisSubscriptionFanOut({ client, prefix: p });
    cleanup.push(() => fanOut.close());
    const { counts, store, bus } = counting(
      new RedisEventStore({ client, prefix: p }),
      newBus({ client, prefix: p }),
    );
    const state = {
      sessionStore: new RedisSessionStore({ client, prefix: p }),
      eventStore: store,
      fanOut,
      messageBus: bus,
    };
    return { state, counts };
  },
};

describe.each(Object.keys(stores))(
  'a GET-stream message raised on a node that does not hold the stream (%s)',
  (kind) => {
    it('arrives once and in order, costing one Redis round trip with @x/redis', async () => {
      const { state, counts } = (stores[kind] as (typeof stores)[string])();
      const nodes: ClusterNode[] = [];
      for (const name of ['a', 'b']) {
        const node = await startNode(name, state, false);
        nodes.push(node);
        cleanup.push(() => node.close());
      }
      const balancer = await startBalancer(() => nodes.map((node) => node.http.port));
      cleanup.push(() => balancer.close());
      const mcp = new Client({ name: 'one-round-trip', version: '1.0.0' }, { protocolVersion: 'legacy' });
      const logs: Array<{ tag: string; n: number; from: string }> = [];
      mcp.on('log', ({ data }) => logs.push(data as { tag: string; n: number; from: string }));
      await mcp.connect(new StreamableHttpClientTransport(new URL(balancer.url), { standaloneStream: true }));
      cleanup.push(() => mcp.close());
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'emit', arguments: { count: 1, tag: 'warm-up' } });
          return logs.length > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the GET stream to carry an event' },
      );
      const holderPort = balancer.served.find((entry) => entry.method === 'GET')?.port;
      const holder = nodes.find((node) => node.http.port === holderPort)?.name;

      // Round robin: within two calls one runs on the node that does not hold the stream.
      const N = 20;
      const emit = async (count: number, tag: string) => {
        const start = { ...counts };
        const before = kind === 'redis' ? await commandStats() : {};
        const from = (await mcp.callTool({ name: 'emit', arguments: { count, tag } })).content[0] as {
          text: string;
        };
        await waitFor(() => logs.filter((entry) => entry.tag === tag).length === count, {
          what: `${count} × ${tag}`,
        });
        const commands = kind === 'redis' ? delta(await commandStats(), before) : {};
        const used = {
          storeEvent: counts.storeEvent - start.storeEvent,
          storeEventAndPublish: counts.storeEventAndPublish - start.storeEventAndPublish,
          publish: counts.publish - start.publish,
        };
        return { from: from.text, tag, commands, used };
      };
      let forwarded: Awaited<ReturnType<typeof emit>> | undefined;
      for (let i = 0; i < 4 && forwarded === undefined; i++) {
        const run = await emit(N, `run-${i}`);
        if (run.from !== holder) forwarded = run;
      }
      expect(forwarded).toBeDefined();
      const run = forwarded as Awaited<ReturnType<typeof emit>>;
      // Zero lost, zero doubled, in the order raised.
      expect(logs.filter((entry) => entry.tag === run.tag).map((entry) => entry.n)).toEqual(
        Array.from({ length: N }, (_, n) => n),
      );
      if (kind === 'in-memory') {
        expect(run.used).toEqual({ storeEvent: N, storeEventAndPublish: 0, publish: N });
        return;
      }
      expect(run.used).toEqual({ storeEvent: 0, storeEventAndPublish: N, publish: 0 });
      // Each message: one EVALSHA running its XADD, PEXPIRE and PUBLISH; none of those sent on its own
      // (the call itself, its POST stream's events and session reads, adds MULTI … EXEC blocks, no EVALSHA).
      expect(run.commands['evalsha']).toBe(N);
      expect(run.commands['publish']).toBe(N);
      const callOnly = await emit(0, 'baseline');
      expect(callOnly.commands['evalsha']).toBeUndefined();
      expect((run.commands['xadd'] ?? 0) - (callOnly.commands['xadd'] ?? 0)).toBe(N);
    });
  },
);

describe('Redis goes away and comes back', () => {
  it('storeEventAndPublish fails at once while Redis is away, and works again once it is back (EVAL refills the emptied script cache)', async () => {
    const server = await startRedis();
    cleanup.push(() => server.stop());
    // As the README recommends: fail at once while Redis is unreachable, reconnect every 100 ms.
    const own = createClient({
      url: server.url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: () => 100 },
    }) as RedisClient;
    own.on('error', () => undefined);
    await own.connect();
    cleanup.push(async () => own.destroy());
    const store = new RedisEventStore({ client: own, prefix: 'o:' });
    const bus = newBus({ client: own, prefix: 'o:' });
    const got: Array<{ e: string; m: JSONRPCMessage }> = [];
    await bus.subscribe('stream:o.g', (payload) => got.push(payload as { e: string; m: JSONRPCMessage }));
    const first = await store.storeEventAndPublish('o.g', note(1), bus, 'stream:o.g');
    await waitFor(() => got.length === 1, { what: 'the first event' });
    expect(got[0]).toEqual({ e: first, m: note(1) });

    await server.stop();
    await waitFor(() => !own.isReady, { what: 'the client to notice Redis is gone' });
    const started = Date.now();
    await expect(store.storeEventAndPublish('o.g', note(2), bus, 'stream:o.g')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);

    await server.restart();
    await waitFor(() => own.isReady, { timeoutMs: 10_000, what: 'the client to reconnect' });
    // Delivery is at most once, to the subscribers present: send until the bus's own connection has
    // subscribed again. Every call stores exactly one event, the first through EVAL (empty cache).
    const sent: string[] = [];
    await waitFor(
      async () => {
        sent.push(await store.storeEventAndPublish('o.g', note(3), bus, 'stream:o.g'));
        return got.length > 1;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'an event through the resubscribed bus' },
    );
    expect(await own.xLen('o:events:{o.g}')).toBe(sent.length);
    for (const payload of got.slice(1)) {
      expect(payload.m).toEqual(note(3));
      expect(sent).toContain(payload.e);
    }
    const stats = await own.info('commandstats');
    expect(stats).toMatch(/^cmdstat_eval:calls=1,/m);
  }, 30_000);
});
