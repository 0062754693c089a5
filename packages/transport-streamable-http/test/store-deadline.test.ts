import {
  type EventStore,
  InMemoryEventStore,
  InMemorySessionStore,
  type JSONRPCMessage,
  type SessionStore,
  StoreTimeoutError,
} from '@x/protocol/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  initializeRequest,
  POST_HEADERS,
  raw,
  parseSse,
  sseMessages,
  startServer,
  type TestServer,
} from './helpers.js';

// Issue #35, finding 6, for any store (not only Redis): every call the handler makes to `sessionStore`
// and `eventStore` has a deadline (`storeTimeoutMs`); past it, 503 naming the store, never its details.

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const SECRET = 'redis://admin:hunter2@10.1.2.3:6379';

/** A user's own session store: `mode` decides whether its calls hang or fail with a detailed error. */
function ownStore(mode: 'hang' | 'fail'): SessionStore {
  const call = <T>(): Promise<T> =>
    mode === 'hang' ? never<T>() : Promise.reject(new Error(`ECONNREFUSED ${SECRET}`));
  return {
    create: call,
    get: call,
    update: call,
    subscriptions: call,
    addSubscription: call,
    removeSubscription: call,
    delete: call,
  };
}

const PING = { jsonrpc: '2.0', id: 2, method: 'ping' };
const VERSION = { 'mcp-protocol-version': '2025-11-25' };

describe('storeTimeoutMs', () => {
  it('a session store that never answers: initialize and an unknown session get 503 naming it, in time', async () => {
    const errors: Error[] = [];
    const server = await startServer({
      sessionStore: ownStore('hang'),
      storeTimeoutMs: 150,
      onerror: (error) => errors.push(error),
    });
    servers.push(server);
    const started = Date.now();
    const replies = await Promise.all([
      raw(server.url, { headers: POST_HEADERS, body: initializeRequest() }),
      raw(server.url, {
        headers: { ...POST_HEADERS, ...VERSION, 'mcp-session-id': 'AAAAAAAAAAAAAAAAAAAAAA' },
        body: PING,
      }),
    ]);
    for (const reply of replies) {
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('1');
      expect((reply.json() as { error: { message: string } }).error.message).toBe(
        'Service Unavailable: the session store did not answer within 150 ms (storeTimeoutMs)',
      );
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(
      errors.some((error) => error instanceof StoreTimeoutError && error.store === 'session store'),
    ).toBe(true);
  });

  it('a failing session store: 503 naming the store, its own message (address, password) only to onerror', async () => {
    const errors: Error[] = [];
    const server = await startServer({
      sessionStore: ownStore('fail'),
      onerror: (error) => errors.push(error),
    });
    servers.push(server);
    const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(reply.status).toBe(503);
    expect(reply.text).toContain('the session store failed');
    expect(reply.text).not.toContain('10.1.2.3');
    expect(reply.text).not.toContain('hunter2');
    expect(errors.map((error) => error.message).join('\n')).toContain(SECRET);
  });

  it('an event store that never answers delays no answer: the message goes out (not resumable)', async () => {
    const hanging: EventStore = {
      storeEvent: () => never(),
      replayEventsAfter: () => never(),
    };
    const server = await startServer({ eventStore: hanging, storeTimeoutMs: 150 });
    servers.push(server);
    const started = Date.now();
    const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const messages = sseMessages(reply.text) as Array<JSONRPCMessage & { result?: unknown }>;
    expect(messages.some((message) => message.result !== undefined)).toBe(true);
    // Without a stored event there is no event id to resume from.
    expect(
      parseSse(reply.text)
        .filter((event) => event.data !== '')
        .every((event) => event.id === undefined),
    ).toBe(true);
  });

  it('refuses a deadline that is not a positive number', async () => {
    await expect(
      startServer({ sessionStore: new InMemorySessionStore(), storeTimeoutMs: 0 }),
    ).rejects.toThrow(/storeTimeoutMs must be a positive number/);
    await expect(
      startServer({ eventStore: new InMemoryEventStore(), storeTimeoutMs: Number.NaN }),
    ).rejects.toThrow(/storeTimeoutMs/);
  });
});
