import { type RedisServerHandle, startRedis } from '@x/test-kit';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectRedis,
  type RedisClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
} from '../src/index.js';
import { type ClusterNode, type SharedState, startNode } from './fixtures/cluster-node.js';

// Issue #35, findings 6 and 12: a frozen or vanished Redis must not hang a request (every store call has
// a deadline, `storeTimeoutMs`, answered with 503 naming the store), and no header of a request may name
// another Redis key, nor may any response carry the store's address.

/** The deadline of these tests: small, so a test waits little; the answer must come well within 5 s. */
const STORE_TIMEOUT_MS = 300;

let redis: RedisServerHandle;
const clients: RedisClient[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);

afterEach(() => {
  // Never leave the server frozen for the next test (or for afterAll's stop).
  redis?.resume();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  for (const client of clients) client.destroy();
  await redis?.stop();
});

const headers = (sessionId?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

interface Answer {
  status: number;
  retryAfter: string | null;
  sessionId: string | null;
  text: string;
  ms: number;
}

/** One exchange, read whole; aborted after 10 s so a hang fails the test instead of stalling it. */
async function send(url: string, init: RequestInit): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    sessionId: response.headers.get('mcp-session-id'),
    text,
    ms: Date.now() - started,
  };
}

const post = (node: ClusterNode, body: string, sessionId?: string): Promise<Answer> =>
  send(`${node.http.url}/mcp`, { method: 'POST', headers: headers(sessionId), body });

/** Two nodes sharing `client`'s Redis (under `prefix`), with the test's small `storeTimeoutMs`. */
async function cluster(
  client: RedisClient,
  prefix: string,
  names: readonly string[] = ['a', 'b'],
): Promise<ClusterNode[]> {
  const fanOut = new RedisSubscriptionFanOut({ client, prefix, onerror: () => undefined });
  const messageBus = new RedisMessageBus({ client, prefix, onerror: () => undefined });
  const shared: SharedState = {
    sessionStore: new RedisSessionStore({ client, prefix }),
    eventStore: new RedisEventStore({ client, prefix }),
    fanOut,
    messageBus,
  };
  const nodes: ClusterNode[] = [];
  for (const name of names) {
    // Node `custom` issues ids of its own format: the handler then checks only that an id is visible
    // ASCII, and the Redis store itself must refuse one that names another key.
    const ids = name === 'custom' ? { sessionIdGenerator: () => crypto.randomUUID() } : {};
    nodes.push(
      await startNode(name, shared, true, {
        storeTimeoutMs: STORE_TIMEOUT_MS,
        onerror: () => undefined,
        ...ids,
      }),
    );
  }
  closers.push(
    () => fanOut.close(),
    () => messageBus.close(),
    ...nodes.map((node) => () => node.close()),
  );
  return nodes;
}

/** A 503 that names the store and its option, says when to retry, and carries no Redis address. */
function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe('1');
  const body = JSON.parse(answer.text) as { error: { code: number; message: string } };
  expect(body.error.message).toMatch(/session store/);
  expectNoAddress(answer);
}

function expectNoAddress(answer: Answer): void {
  expect(answer.text).not.toContain('127.0.0.1');
  expect(answer.text).not.toContain(String(redis.port));
  expect(answer.text).not.toContain('redis://');
}

describe('a frozen Redis (SIGSTOP), with the outage client of the README', () => {
  it('initialize and an adoption on another process answer 503 within storeTimeoutMs; SIGCONT recovers', async () => {
    const client = createClient({
      url: redis.url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: () => 100 },
    }) as RedisClient;
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    const [a, b] = (await cluster(client, 'frozen:')) as [ClusterNode, ClusterNode];
    const opened = await post(a, INITIALIZE);
    expect(opened.status).toBe(200);
    const sessionId = opened.sessionId as string;

    redis.pause();
    const [initialize, adoption, resumption] = await Promise.all([
      post(b, INITIALIZE),
      post(b, PING, sessionId),
      // A resumption on the process holding the session: the event store cannot answer either.
      send(`${a.http.url}/mcp`, {
        method: 'GET',
        headers: { ...headers(sessionId), accept: 'text/event-stream', 'last-event-id': 'abc.g#1-1' },
      }),
    ]);
    for (const answer of [initialize, adoption]) {
      expectStoreUnavailable(answer);
      expect(answer.text).toContain(
        `session store did not answer within ${STORE_TIMEOUT_MS} ms (storeTimeoutMs)`,
      );
      expect(answer.ms).toBeLessThan(5_000);
    }
    // 503, not 400 "unknown Last-Event-ID": the client may resume once the store is back.
    expect(resumption.status).toBe(503);
    expect(resumption.retryAfter).toBe('1');
    expect(resumption.text).toContain(`event store did not answer within ${STORE_TIMEOUT_MS} ms`);
    expectNoAddress(resumption);
    redis.resume();

    await vi.waitFor(async () => expect((await post(b, PING, sessionId)).status).toBe(200), {
      timeout: 15_000,
      interval: 100,
    });
    const fresh = await post(b, INITIALIZE);
    expect(fresh.status).toBe(200);
    expect(fresh.sessionId).not.toBeNull();
  }, 60_000);
});

describe('Redis killed, with the quick-start client of the README (connectRedis)', () => {
  it('answers 503 naming the session store at once, no crash, and works again once Redis is back', async () => {
    const errors: Error[] = [];
    const client = await connectRedis({ url: redis.url, onerror: (error) => errors.push(error) });
    clients.push(client);
    const [a, b] = (await cluster(client, 'killed:')) as [ClusterNode, ClusterNode];
    const opened = await post(a, INITIALIZE);
    expect(opened.status).toBe(200);
    const sessionId = opened.sessionId as string;

    await redis.stop();
    try {
      await vi.waitFor(() => expect(client.isReady).toBe(false), { timeout: 10_000 });
      const [initialize, adoption] = await Promise.all([post(b, INITIALIZE), post(b, PING, sessionId)]);
      for (const answer of [initialize, adoption]) {
        expectStoreUnavailable(answer);
        expect(answer.ms).toBeLessThan(5_000);
      }
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await redis.restart();
    }
    await vi.waitFor(() => expect(client.isReady).toBe(true), { timeout: 15_000 });
    await vi.waitFor(async () => expect((await post(b, INITIALIZE)).status).toBe(200), {
      timeout: 15_000,
      interval: 100,
    });
  }, 60_000);
});

describe('crafted session ids and event ids name no other Redis key', () => {
  it('answers 404 (unknown session) or 400, never 503, and no body carries the Redis address', async () => {
    const client = createClient({ url: redis.url, disableOfflineQueue: true }) as RedisClient;
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    const [a, b, custom] = (await cluster(client, 'ids:', ['a', 'b', 'custom'])) as [
      ClusterNode,
      ClusterNode,
      ClusterNode,
    ];
    const opened = await post(a, INITIALIZE);
    const sessionId = opened.sessionId as string;
    // The session's subscription set (what `resources/subscribe` writes): `<id>:subs` is a real key.
    await client.sAdd(`ids:session:${sessionId}:subs`, 'note://a');

    const crafted = [
      `${sessionId}:subs`,
      `${sessionId}x`,
      `${sessionId}:`,
      `{${sessionId}}`,
      `${sessionId}*`,
      '*',
      'x'.repeat(300),
      `${sessionId.slice(0, -1)}:`,
    ];
    for (const node of [a, b, custom]) {
      for (const id of crafted) {
        for (const answer of [
          await post(node, PING, id),
          await send(`${node.http.url}/mcp`, { method: 'GET', headers: headers(id) }),
          await send(`${node.http.url}/mcp`, { method: 'DELETE', headers: headers(id) }),
        ]) {
          expect(answer.status, `${id} on ${node.name}`).toBe(404);
          expectNoAddress(answer);
        }
      }
    }

    // Last-Event-ID goes into an event-stream key: one that could name another key is refused (400).
    for (const lastEventId of [
      `${sessionId}:subs#1-1`,
      `{x}#1-1`,
      `../session:${sessionId}#0-1`,
      `x#1-1:subs`,
    ]) {
      const answer = await send(`${b.http.url}/mcp`, {
        method: 'GET',
        headers: { ...headers(sessionId), accept: 'text/event-stream', 'last-event-id': lastEventId },
      });
      expect(answer.status, lastEventId).toBe(400);
      expectNoAddress(answer);
    }
    // The session itself is untouched and still served by both.
    expect((await post(b, PING, sessionId)).status).toBe(200);
    expect((await post(a, PING, sessionId)).status).toBe(200);
  }, 60_000);
});

describe('connectRedis on a frozen Redis', () => {
  it('drops the silent connection after socketTimeoutMs (PINGs unanswered), fails fast, and reconnects after SIGCONT', async () => {
    const errors: Error[] = [];
    const client = await connectRedis({
      url: redis.url,
      pingIntervalMs: 100,
      socketTimeoutMs: 500,
      onerror: (error) => errors.push(error),
    });
    clients.push(client);
    redis.pause();
    await vi.waitFor(() => expect(client.isReady).toBe(false), { timeout: 10_000 });
    expect(errors.some((error) => /timeout/i.test(error.message))).toBe(true);
    // While it cannot reach Redis, a command fails at once instead of queueing.
    const started = Date.now();
    await expect(client.get('k')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
    redis.resume();
    await vi.waitFor(async () => expect(await client.ping()).toBe('PONG'), {
      timeout: 15_000,
      interval: 100,
    });
  }, 60_000);
});
