import {
  InMemorySessionStore,
  InMemoryTransport,
  McpError,
  Protocol,
  ResultSchema,
  type SessionStore,
} from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { session } from './tasks-fixture.js';
import { InMemoryTaskStore, type TaskStore } from '@x/protocol';

// Issue #35, finding 6: the server's own store calls (a legacy session's handshake state written before
// `initialize` is answered, `logging/setLevel`, `resources/subscribe`) have a deadline too
// (`storeTimeoutMs`), and a failed store never puts its error text (an address) into a response.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A store whose writes never settle (a frozen Redis), or fail with `failure`; reads answer "unknown". */
function brokenStore(failure?: Error): SessionStore {
  const base = new InMemorySessionStore();
  const write = (): Promise<never> =>
    failure === undefined ? new Promise<never>(() => undefined) : Promise.reject(failure);
  return {
    create: write,
    get: (id) => base.get(id),
    update: write,
    subscriptions: () => Promise.resolve([]),
    addSubscription: write,
    removeSubscription: write,
    delete: write,
  };
}

async function initializeOn(sessionStore: SessionStore, storeTimeoutMs?: number): Promise<McpError> {
  const server = new McpServer(
    { name: 'deadline', version: '1.0.0' },
    storeTimeoutMs === undefined ? { sessionStore } : { sessionStore, storeTimeoutMs },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  serverTransport.sessionId = 'session-1';
  await server.connect(serverTransport);
  const client = new Protocol({ timeout: 10_000 });
  await client.connect(clientTransport);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  const outcome = await client
    .request(
      {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      ResultSchema,
    )
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(outcome).toBeInstanceOf(McpError);
  return outcome as McpError;
}

describe('McpServer storeTimeoutMs', () => {
  it('answers initialize with an error naming the store and the option once a store write passes the deadline', async () => {
    const started = Date.now();
    const error = await initializeOn(brokenStore(), 200);
    expect(error.message).toContain('session store did not answer within 200 ms (storeTimeoutMs)');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('never puts the store error text (its address) into the answer', async () => {
    const error = await initializeOn(brokenStore(new Error('connect ECONNREFUSED 10.9.8.7:6379')));
    expect(error.message).toContain('session store failed');
    expect(error.message).not.toContain('10.9.8.7');
    expect(JSON.stringify(error.data ?? null)).not.toContain('10.9.8.7');
  });

  it('refuses a deadline that is not a positive number of milliseconds', () => {
    expect(() => new McpServer({ name: 'x', version: '1' }, { storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs/);
  });
});

describe('a failing task store', () => {
  it('answers tasks/get with an error naming the task store, never its own message (its address)', async () => {
    const failing: TaskStore = new InMemoryTaskStore();
    failing.get = () => Promise.reject(new Error('connect ECONNREFUSED 10.9.8.7:6379'));
    const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { tasks: { store: failing } });
    closers.push(() => server.close());
    const wire = await session(server);
    const error = await wire.call('tasks/get', { taskId: 'x' }).then(
      () => undefined,
      (e: unknown) => e as McpError,
    );
    expect(error?.message).toContain('task store failed');
    expect(error?.message).not.toContain('10.9.8.7');
  });
});
