import { Client } from '@x/client';
import { InMemoryEventStore } from '@x/protocol';
import { type RedisServerHandle, startRedis, waitFor } from '@x/test-kit';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisClient,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
} from '../src/index.js';
import { type Balancer, startBalancer } from '@x/test-kit/balancer';
import { type ClusterNode, startNode } from './fixtures/cluster-node.js';

// What happens when Redis itself goes away (issue #27): requests that need it fail at once with a clear
// error (nothing hangs), and the endpoint works again once Redis is back.

let redis: RedisServerHandle;
let client: RedisClient;
const redisErrors: Error[] = [];
const nodes: ClusterNode[] = [];
let balancer: Balancer;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedis();
  // disableOfflineQueue: while Redis is unreachable a command fails at once instead of waiting for the
  // reconnection (which would hold the HTTP request open); reconnects every 100 ms.
  client = createClient({
    url: redis.url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: () => 100 },
  }) as RedisClient;
  client.on('error', (error: Error) => redisErrors.push(error));
  await client.connect();
  const fanOut = new RedisSubscriptionFanOut({ client, prefix: 'o:' });
  const messageBus = new RedisMessageBus({ client, prefix: 'o:' });
  closers.push(
    () => fanOut.close(),
    () => messageBus.close(),
  );
  const shared = {
    sessionStore: new RedisSessionStore({ client, prefix: 'o:' }),
    eventStore: new InMemoryEventStore(),
    fanOut,
    messageBus,
  };
  for (const name of ['a', 'b']) nodes.push(await startNode(name, shared, true));
  balancer = await startBalancer(() => nodes.map((node) => node.http.port));
}, 30_000);

afterAll(async () => {
  await balancer?.close();
  for (const node of nodes) await node.close();
  for (const close of closers) await close().catch(() => undefined);
  client?.destroy();
  await redis?.stop();
});

const headers = (sessionId?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('Redis goes away and comes back', () => {
  it('new sessions and sessions held elsewhere get 503 naming the session store at once; all recovers', async () => {
    const mcp = new Client({ name: 'outage', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await mcp.connect(new StreamableHttpClientTransport(new URL(balancer.url), { standaloneStream: false }));
    await mcp.callTool({ name: 'whoami', arguments: {} });
    await mcp.close();

    await redis.stop();
    await waitFor(() => !client.isReady, { what: 'the client to notice Redis is gone' });

    const started = Date.now();
    const refused = await fetch(`${nodes[0]?.http.url}/mcp`, {
      method: 'POST',
      headers: headers(),
      body: initialize,
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/session store failed/);
    const unknown = await fetch(`${nodes[1]?.http.url}/mcp`, {
      method: 'POST',
      // Well formed (the default generator's 22 base64url characters), so the store is asked.
      headers: headers('heldByNobodyHere_00000'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(unknown.status).toBe(503);
    await unknown.body?.cancel();
    // No hang: both answered well within a second or two, not after a reconnection timeout.
    expect(Date.now() - started).toBeLessThan(5_000);

    await redis.restart();
    await waitFor(() => client.isReady, { timeoutMs: 10_000, what: 'the client to reconnect' });
    const again = new Client({ name: 'after', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await again.connect(
      new StreamableHttpClientTransport(new URL(balancer.url), { standaloneStream: false }),
    );
    const ranOn = new Set<string>();
    for (let i = 0; i < 4; i++) {
      ranOn.add(
        ((await again.callTool({ name: 'whoami', arguments: {} })).content[0] as { text: string }).text,
      );
    }
    expect([...ranOn].sort()).toEqual(['a', 'b']);
    await again.close();
    expect(redisErrors.length).toBeGreaterThan(0);
  }, 60_000);
});
