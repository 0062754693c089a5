import { setTimeout as sleep } from 'node:timers/promises';
import type { JSONRPCMessage } from '@x/protocol';
import {
  type RedisClusterHandle,
  type RedisSentinelHandle,
  startRedisCluster,
  startRedisSentinel,
  waitFor,
} from '@x/test-kit';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectRedisCluster,
  connectRedisSentinel,
  type RedisClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
} from '../src/index.js';
import { keySlot } from '../src/key-slot.js';
import { sendKeyed } from '../src/redis-client.js';

// Issue #41: a Redis primary dies mid-traffic (SIGKILL), on a Sentinel set and on a Redis Cluster. One
// client (the "producer" process) stores and publishes events on a stream, another (the "holder"
// process) listens on the bus. Asserted: no call hangs (each settles: failing fast while no primary
// answers on a cluster, retried by node-redis until the promotion on Sentinel); the clients follow the promoted replica; a session written before the kill is served after
// it; live delivery resumes in order; and what is lost stays within the documented bound: Redis
// replicates asynchronously, so only events acknowledged in the last moment before the crash (one
// replication lag, well under the 1 s window asserted here on loopback) may be missing after it.

/** Events acknowledged within this window before the kill may be lost (asynchronous replication). */
const LAG_WINDOW_MS = 1_000;

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: { n } },
});

interface Run {
  producer: RedisClient;
  holder: RedisClient;
  prefix: string;
  kill(): void;
  /** What the Redis side looks like, for a failure's message. */
  describe(): Promise<string>;
}

interface Outcome {
  acked: number;
  failed: number;
  lostStored: number;
  lostLive: number;
  slowestCallMs: number;
  failoverMs: number;
}

async function midTrafficFailover({ producer, holder, prefix, kill, describe }: Run): Promise<Outcome> {
  const sessions = new RedisSessionStore({ client: producer, prefix });
  const sessionsSeenByHolder = new RedisSessionStore({ client: holder, prefix });
  const store = new RedisEventStore({ client: producer, prefix });
  const bus = new RedisMessageBus({ client: producer, prefix });
  const holderBus = new RedisMessageBus({ client: holder, prefix });
  const holderStore = new RedisEventStore({ client: holder, prefix });
  try {
    await sessions.create('s-1', { principal: 'alice' });
    const delivered: number[] = [];
    await holderBus.subscribe('stream:g-1', (payload) => {
      delivered.push((payload as { m: { params: { data: { n: number } } } }).m.params.data.n);
    });
    const primed = await store.storeEvent('g-1', undefined);
    // The session and the stream are on the replica before traffic starts (WAIT: the primary's replica
    // acknowledged every write so far), so what the kill may cost is the traffic's last moment alone.
    expect(await sendKeyed(producer, `${prefix}events:{g-1}`, ['WAIT', '1', '10000'])).toBe(1);
    expect(await sendKeyed(producer, `${prefix}session:{s-1}`, ['WAIT', '1', '10000'])).toBe(1);

    const acked: Array<{ n: number; at: number }> = [];
    let failed = 0;
    let slowestCallMs = 0;
    let running = true;
    let n = 0;
    const trafficFrom: number = Date.now();
    const traffic = (async () => {
      while (running) {
        const started = Date.now();
        const current = n++;
        try {
          await store.storeEventAndPublish('g-1', note(current), bus, 'stream:g-1');
          acked.push({ n: current, at: Date.now() });
        } catch {
          failed++;
        }
        slowestCallMs = Math.max(slowestCallMs, Date.now() - started);
        // Paced (about 300/s) so the loop leaves the busy CI box some CPU, failing calls included.
        await sleep(failed > 0 && acked.at(-1)?.n !== current ? 20 : 3);
      }
    })();

    // Traffic for longer than the loss window before the kill, so the bound below means something.
    await waitFor(() => delivered.length >= 100 && Date.now() - (trafficFrom as number) > 2 * LAG_WINDOW_MS, {
      timeoutMs: 30_000,
      what: '100 events and two loss windows of traffic before the kill',
    });
    const killedAt = Date.now();
    kill();
    // The producer's writes succeed again once a replica took over and the client followed it.
    await waitFor(() => (acked.at(-1)?.at ?? 0) > killedAt, {
      timeoutMs: 120_000,
      intervalMs: 50,
      what: 'a write acknowledged by the promoted replica',
    }).catch(async (error: Error) => {
      throw new Error(`${error.message} (${failed} calls failed since); ${await describe()}`);
    });
    const failoverMs = Date.now() - killedAt;
    // Live delivery resumes: 100 more, all heard.
    const resumedFrom = n;
    await waitFor(() => delivered.filter((d) => d >= resumedFrom).length >= 100, {
      timeoutMs: 120_000,
      intervalMs: 50,
      what: 'live delivery after the failover',
    });
    running = false;
    await traffic;
    const lastAcked = acked.at(-1)?.n ?? 0;
    await waitFor(() => delivered.at(-1) === lastAcked, { what: 'the last acknowledged event delivered' });

    // In order, nothing twice.
    for (let i = 1; i < delivered.length; i++)
      expect(delivered[i] as number).toBeGreaterThan(delivered[i - 1] as number);
    // Every event acknowledged after the holder was back is delivered. The holder is back when it hears
    // the first event published after the failover: the producer's writes may reach the promoted replica
    // before the holder's subscription has moved there (those are the live losses bounded below, and
    // they are in the store for a resuming client). From then on nothing is missed.
    const holderBackFrom = delivered.find((d) => d >= resumedFrom) ?? resumedFrom;
    const ackedAfter = acked.filter((a) => a.n >= holderBackFrom).map((a) => a.n);
    expect(ackedAfter.length).toBeGreaterThanOrEqual(100);
    expect(delivered.filter((d) => d >= holderBackFrom)).toEqual(ackedAfter);

    // The session written before the kill is served after it, from either process.
    expect(await sessionsSeenByHolder.get('s-1')).toMatchObject({ principal: 'alice' });

    // Stored events: a replay from the priming event returns every acknowledged one, but those of the
    // last replication lag before the kill.
    const stored = new Set<number>();
    // The priming event (replicated before the traffic) is still there: the replay is served.
    const replayed = await holderStore.replayEventsAfter(primed, {
      send: (_id, message) => {
        stored.add((message as unknown as { params: { data: { n: number } } }).params.data.n);
      },
    });
    expect(replayed).toBe('g-1');
    const lost = acked.filter((a) => !stored.has(a.n));
    // Only events acknowledged by the old primary in its last moment: none acknowledged after the kill.
    for (const gone of lost) {
      expect(gone.at).toBeGreaterThan(killedAt - LAG_WINDOW_MS);
      expect(gone.at).toBeLessThanOrEqual(killedAt);
    }
    const lostLive = acked.filter((a) => !delivered.includes(a.n));
    // Live messages lost: those of the last moment before the kill, and those published on the new
    // primary before the holder's subscription moved there (a resuming client replays them).
    for (const gone of lostLive) expect(gone.at).toBeGreaterThan(killedAt - LAG_WINDOW_MS);
    // Most of the traffic before the kill is in the store: the bound is not met by losing it all.
    expect(lost.length).toBeLessThan(acked.filter((a) => a.at <= killedAt).length / 2);
    for (const gone of lostLive.filter((a) => a.at > killedAt)) expect(stored.has(gone.n)).toBe(true);
    // No call hung: each failed fast (cluster) or was retried by the client until the promoted replica
    // answered (Sentinel), never longer than the failover itself, plus a busy machine's margin.
    expect(slowestCallMs).toBeLessThan(failoverMs + 5_000);
    return {
      acked: acked.length,
      failed,
      lostStored: lost.length,
      lostLive: lostLive.length,
      slowestCallMs,
      failoverMs,
    };
  } finally {
    await holderBus.close();
    await bus.close();
  }
}

describe('a Sentinel primary killed mid-traffic', () => {
  let set: RedisSentinelHandle | undefined;
  const clients: RedisClient[] = [];
  afterAll(async () => {
    for (const client of clients) await Promise.resolve(client.destroy()).catch(() => undefined);
    await set?.stop();
  });

  it('the clients follow the promoted replica; sessions and streams go on; losses within the bound', async () => {
    set = await startRedisSentinel();
    const connect = () =>
      connectRedisSentinel({
        name: (set as RedisSentinelHandle).name,
        sentinels: (set as RedisSentinelHandle).sentinelRootNodes,
      });
    const [producer, holder] = await Promise.all([connect(), connect()]);
    clients.push(producer, holder);
    const primary = await set.primaryPort();
    const outcome = await midTrafficFailover({
      producer,
      holder,
      prefix: 'fo:',
      kill: () => set?.servers.find((server) => server.port === primary)?.kill(),
      describe: async () => `sentinels name ${await set?.primaryPort().catch(String)} (was ${primary})`,
    });
    expect(await set.primaryPort()).not.toBe(primary);
    console.log('sentinel failover', outcome);
  }, 300_000);
});

describe('a Redis Cluster primary killed mid-traffic', () => {
  let cluster: RedisClusterHandle | undefined;
  const clients: RedisClient[] = [];
  afterAll(async () => {
    for (const client of clients) await Promise.resolve(client.destroy()).catch(() => undefined);
    await cluster?.stop();
  });

  it('the clients refresh the slots and resubscribe the sharded channel; losses within the bound', async () => {
    cluster = await startRedisCluster();
    const rootNodes = cluster.nodes.map((node) => node.url);
    const [producer, holder] = await Promise.all([
      connectRedisCluster({ rootNodes }),
      connectRedisCluster({ rootNodes }),
    ]);
    clients.push(producer, holder);
    const prefix = 'fo:';
    // The primary of the stream's slot, which is also its bus channel's.
    const owner = producer.getSlotMaster(keySlot(`${prefix}events:{g-1}`)).port;
    expect(producer.getSlotMaster(keySlot(`${prefix}bus:stream:{g-1}`)).port).toBe(owner);
    const outcome = await midTrafficFailover({
      producer,
      holder,
      prefix,
      kill: () => cluster?.nodes.find((node) => node.port === owner)?.kill(),
      describe: async () => {
        const live = cluster?.nodes.find((node) => node.port !== owner);
        const admin = await createClient({ url: live?.url ?? '' }).connect();
        try {
          const nodes = await admin.sendCommand(['CLUSTER', 'NODES']);
          const seen = producer.masters.map((master) => master.port).join(',');
          return `the producer's primaries ${seen} (killed ${owner}); CLUSTER NODES:\n${String(nodes)}`;
        } finally {
          admin.destroy();
        }
      },
    });
    expect(producer.getSlotMaster(keySlot(`${prefix}events:{g-1}`)).port).not.toBe(owner);
    console.log('cluster failover', outcome);
  }, 300_000);
});
