import { Client } from '@x/client';
import {
  InMemoryEventStore,
  InMemoryMessageBus,
  InMemorySessionStore,
  InMemorySubscriptionFanOut,
  type LoggingMessageNotificationParams,
} from '@x/protocol';
import {
  type RedisClusterHandle,
  type RedisServerHandle,
  startRedis,
  startRedisCluster,
  waitFor,
} from '@x/test-kit';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { createClient, createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisClient,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
} from '../src/index.js';
import { type Balancer, startBalancer } from '@x/test-kit/balancer';
import { type ClusterNode, type SharedState, startNode } from './fixtures/cluster-node.js';

// Several McpServer + handler pairs in one process, each on its own port behind a round-robin balancer,
// sharing only the scale-out stores: what works here works across processes (see cluster.test.ts).

let redis: RedisServerHandle;
let client: RedisClient;
// A 3-primary/3-replica Redis Cluster and its `createCluster` client (issue #41).
let redisCluster: RedisClusterHandle;
let clusterClient: RedisClient;
let prefixes = 0;
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
  [redis, redisCluster] = await Promise.all([startRedis(), startRedisCluster()]);
  client = await createClient({ url: redis.url }).connect();
  clusterClient = await createCluster({ rootNodes: redisCluster.rootNodes }).connect();
}, 60_000);

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

afterAll(async () => {
  client?.destroy();
  clusterClient?.destroy();
  await redis?.stop();
  await redisCluster?.stop();
});

const shared: Record<string, () => SharedState> = {
  'in-memory': () => ({
    sessionStore: new InMemorySessionStore(),
    eventStore: new InMemoryEventStore(),
    fanOut: new InMemorySubscriptionFanOut(),
    messageBus: new InMemoryMessageBus(),
  }),
  redis: () => onRedis(client),
  'redis cluster': () => onRedis(clusterClient),
};

function onRedis(client: RedisClient): SharedState {
  const prefix = `c${prefixes++}:`;
  const fanOut = new RedisSubscriptionFanOut({ client, prefix });
  const messageBus = new RedisMessageBus({ client, prefix });
  cleanup.push(
    () => fanOut.close(),
    () => messageBus.close(),
  );
  return {
    messageBus,
    sessionStore: new RedisSessionStore({ client, prefix }),
    eventStore: new RedisEventStore({ client, prefix }),
    fanOut,
  };
}

async function cluster(kind: string, json: boolean): Promise<{ nodes: ClusterNode[]; balancer: Balancer }> {
  const state = (shared[kind] as () => SharedState)();
  const nodes: ClusterNode[] = [];
  for (const name of ['a', 'b', 'c']) {
    const node = await startNode(name, state, json);
    nodes.push(node);
    cleanup.push(() => node.close());
  }
  const balancer = await startBalancer(() => nodes.map((node) => node.http.port));
  cleanup.push(() => balancer.close());
  return { nodes, balancer };
}

async function connect(url: string, standaloneStream = false): Promise<Client> {
  const mcp = new Client({ name: 'through-the-balancer', version: '1.0.0' }, { protocolVersion: 'legacy' });
  mcp.setElicitationHandler(() => ({ action: 'accept', content: { ok: true } }));
  await mcp.connect(new StreamableHttpClientTransport(new URL(url), { standaloneStream }));
  cleanup.push(() => mcp.close());
  return mcp;
}

describe.each(Object.keys(shared))('%s stores', (kind) => {
  describe.each([true, false])('JSON replies: %s', (json) => {
    it('any node serves any POST of a session it never saw, from the shared session state', async () => {
      const { balancer } = await cluster(kind, json);
      const mcp = await connect(balancer.url);
      const ranOn = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const result = await mcp.callTool({ name: 'whoami', arguments: {} });
        ranOn.add((result.content[0] as { text: string }).text);
      }
      // Round robin over three nodes: every node ran the tool for the one session.
      expect([...ranOn].sort()).toEqual(['a', 'b', 'c']);
      const sessions = new Set(balancer.served.map((entry) => entry.session).filter(Boolean));
      expect(sessions.size).toBe(1);
      expect(mcp.protocolVersion).toBe('2025-11-25');
    });

    it('a log level set on one node holds on every node (logging/setLevel is stored before its answer)', async () => {
      const { balancer } = await cluster(kind, json);
      const mcp = await connect(balancer.url);
      const logs: LoggingMessageNotificationParams[] = [];
      mcp.on('log', (entry) => logs.push(entry));
      await mcp.setLoggingLevel('error');
      for (let i = 0; i < 3; i++) await mcp.callTool({ name: 'log', arguments: {} });
      if (json) {
        // A JSON reply carries only the response; related notifications are dropped (see README).
        expect(logs).toEqual([]);
        return;
      }
      await waitFor(() => logs.length === 3, { what: 'three error logs' });
      expect(logs.map((entry) => entry.level)).toEqual(['error', 'error', 'error']);
    });

    it('a tool on one node elicits through the client, whose answer, POSTed to another node, reaches it', async () => {
      const { balancer } = await cluster(kind, json);
      const mcp = await connect(balancer.url, true);
      // With JSON replies the elicitation rides the GET stream: wait until it carries what another node
      // raises (a message raised before any GET stream listens is kept only for a resumption).
      let warm = 0;
      mcp.on('log', () => warm++);
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'emit', arguments: { count: 1, tag: 'warm-up' } });
          return warm > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the GET stream to carry an event' },
      );
      const answers = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const result = await mcp.callTool({ name: 'ask', arguments: {} });
        answers.add((result.content[0] as { text: string }).text);
      }
      expect([...answers].every((text) => text.endsWith(':accept:{"ok":true}'))).toBe(true);
      expect(new Set([...answers].map((text) => text.split(':')[0])).size).toBeGreaterThan(1);
      // Each answer is one POST; with round robin most went to a node other than the one that asked.
      const answerPosts = balancer.served.filter((entry) => entry.method === 'POST').length;
      expect(answerPosts).toBeGreaterThanOrEqual(2 + 8);
    });

    it('an unknown session is 404 on every node; after DELETE a node that never held the session answers 404', async () => {
      const { balancer, nodes } = await cluster(kind, json);
      await connect(balancer.url);
      const id = balancer.served.find((entry) => entry.session !== undefined)?.session as string;
      const post = (url: string, sessionId: string) =>
        fetch(`${url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
            'mcp-session-id': sessionId,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      for (const node of nodes) {
        const response = await post(node.http.url, 'no-such-session');
        expect(response.status).toBe(404);
        await response.body?.cancel();
      }
      const servedPorts = new Set(balancer.served.map((entry) => entry.port));
      const unseen = nodes.filter((node) => !servedPorts.has(node.http.port));
      const holder = nodes.find((node) => servedPorts.has(node.http.port)) as ClusterNode;
      expect(unseen.length).toBeGreaterThan(0);
      const deleted = await fetch(`${holder.http.url}/mcp`, {
        method: 'DELETE',
        headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': id },
      });
      expect(deleted.status).toBe(200);
      for (const node of unseen) {
        const response = await post(node.http.url, id);
        expect(response.status).toBe(404);
        await response.body?.cancel();
      }
    });
  });
});
