import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@x/client';
import { MetaKey, TASKS_EXTENSION } from '@x/protocol';
import { startRedis, startRedisCluster, startRedisSentinel, waitFor } from '@x/test-kit';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Balancer, startBalancer } from '@x/test-kit/balancer';

// Three real x-mcp server processes (fixtures/cluster-server.mjs, on the built packages) share one real
// redis-server; a round-robin balancer with no session affinity sits in front. Run `pnpm turbo run
// build --filter=@x/redis...` first when running this file alone (pnpm test builds before testing).

const SERVER = fileURLToPath(new URL('./fixtures/cluster-server.mjs', import.meta.url));

interface Node {
  name: string;
  port: number;
  child: ChildProcess;
}

/** The Redis of the running backend: one URL, or a Redis Cluster's root nodes joined by commas. */
let redisUrl = '';
let stopRedis: () => Promise<void> = async () => undefined;
let clusters = 0;
const cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close().catch(() => undefined);
});

async function startProcess(name: string, prefix: string, json: boolean): Promise<Node> {
  const child = spawn(process.execPath, [SERVER, name, redisUrl, prefix, json ? '1' : '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // A failed test shows what each process reported (its handler's onerror): a lost bus message or a
  // refused subscription shows up there.
  onTestFailed(() => {
    if (stderr !== '') console.error(`process ${name} (${redisUrl}) stderr:\n${stderr}`);
  });
  cleanup.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening:\n${stderr}`)));
  });
  return { name, port, child };
}

async function startCluster(json: boolean): Promise<{ nodes: Node[]; balancer: Balancer }> {
  const prefix = `k${clusters++}:`;
  const nodes = await Promise.all(['a', 'b', 'c'].map((name) => startProcess(name, prefix, json)));
  const balancer = await startBalancer(() => nodes.map((node) => node.port));
  cleanup.push(() => balancer.close());
  return { nodes, balancer };
}

async function killHard(node: Node): Promise<void> {
  const exited = new Promise((resolve) => node.child.once('exit', resolve));
  node.child.kill('SIGKILL');
  await exited;
}

function xmcpClient(): Client {
  const mcp = new Client({ name: 'x-mcp', version: '1.0.0' }, { protocolVersion: 'legacy' });
  mcp.setElicitationHandler(() => ({ action: 'accept', content: { ok: true } }));
  cleanup.push(() => mcp.close());
  return mcp;
}

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

// Every test, on one redis-server, on a Redis Cluster and on a Sentinel set (issue #41): the same proofs,
// unchanged.
describe.each([
  'one redis-server',
  'a Redis Cluster (3 primaries, 3 replicas)',
  'a Sentinel set (a primary, a replica, 3 sentinels)',
])('on %s', (backend) => {
  beforeAll(async () => {
    if (backend === 'one redis-server') {
      const redis = await startRedis();
      redisUrl = redis.url;
      stopRedis = () => redis.stop();
    } else if (backend.startsWith('a Sentinel set')) {
      const set = await startRedisSentinel();
      redisUrl = `sentinel://${set.name}@${set.sentinelRootNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
      stopRedis = () => set.stop();
    } else {
      const cluster = await startRedisCluster();
      redisUrl = cluster.rootNodes.map((node) => node.url).join(',');
      stopRedis = () => cluster.stop();
    }
  }, 60_000);

  afterAll(async () => {
    await stopRedis();
  });

  describe.each([false, true])('three processes on Redis, JSON replies: %s', (json) => {
    it('serves one session on every process, routes elicitation across them, fans out resource updates', async () => {
      const { balancer } = await startCluster(json);
      const mcp = xmcpClient();
      const updates: string[] = [];
      mcp.on('resourceUpdated', ({ uri }) => updates.push(uri));
      let warm = 0;
      mcp.on('log', () => warm++);
      await mcp.connect(new StreamableHttpClientTransport(new URL(balancer.url)));
      // The GET stream is live once it carries an event another process raised.
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'emit', arguments: { count: 1, tag: 'warm-up', everyMs: 0 } });
          return warm > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the GET stream to carry an event' },
      );

      const ranOn = new Set<string>();
      for (let i = 0; i < 6; i++) ranOn.add(text(await mcp.callTool({ name: 'whoami', arguments: {} })));
      expect([...ranOn].sort()).toEqual(['a', 'b', 'c']);

      // A tool elicits on the process it runs on; the answer is POSTed wherever the balancer sends it.
      const asked = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const answer = text(await mcp.callTool({ name: 'ask', arguments: {} }));
        expect(answer).toMatch(/^[abc]:accept:\{"ok":true\}$/);
        asked.add(answer.slice(0, 1));
      }
      expect(asked.size).toBe(3);

      // Subscribed on one process; each update raised on any process reaches the client once.
      await mcp.subscribeResource({ uri: 'note://a' });
      for (let i = 0; i < 3; i++) await mcp.callTool({ name: 'touch', arguments: {} });
      await waitFor(() => updates.length >= 3, { what: 'three resource updates' });
      await mcp.callTool({ name: 'whoami', arguments: {} });
      expect(updates).toEqual(['note://a', 'note://a', 'note://a']);
    }, 60_000);

    it('the official SDK client works through the balancer, elicitation included', async () => {
      const { balancer } = await startCluster(json);
      const sdk = new SdkClient({ name: 'sdk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      sdk.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
      await sdk.connect(new SdkTransport(new URL(balancer.url)));
      cleanup.push(() => sdk.close());
      const ranOn = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const result = (await sdk.callTool({ name: 'whoami', arguments: {} })) as { content: unknown[] };
        ranOn.add(text(result));
      }
      expect([...ranOn].sort()).toEqual(['a', 'b', 'c']);
      for (let i = 0; i < 3; i++) {
        const result = (await sdk.callTool({ name: 'ask', arguments: {} })) as { content: unknown[] };
        expect(text(result)).toMatch(/^[abc]:accept:\{"ok":true\}$/);
      }
    }, 60_000);

    it('kill -9 of the process holding the GET stream mid-stream: the client resumes elsewhere, no event lost or doubled', async () => {
      const { balancer, nodes } = await startCluster(json);
      const mcp = xmcpClient();
      const seen: number[] = [];
      let warm = 0;
      mcp.on('log', ({ data }) => {
        const entry = data as { tag?: string; n?: number };
        if (entry.tag === 'stream') seen.push(entry.n as number);
        if (entry.tag === 'warm-up') warm++;
      });
      await mcp.connect(
        new StreamableHttpClientTransport(new URL(balancer.url), {
          reconnect: { initialDelayMs: 50, maxDelayMs: 500, maxAttempts: 20 },
        }),
      );
      const get = await waitFor(() => balancer.served.find((entry) => entry.method === 'GET'), {
        what: 'the GET stream',
      });
      const holder = nodes.find((node) => node.port === get.port) as Node;
      // The GET stream is live once an event raised elsewhere arrives on it (before that, one would be
      // stored but reach no listener: a fresh GET stream carries what is raised after it opened).
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'emit', arguments: { count: 1, tag: 'warm-up', everyMs: 0 } });
          return warm > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the GET stream to carry an event' },
      );
      const producer = nodes.find((node) => node !== holder) as Node;
      const sessionId = get.session as string;

      // The producer runs the tool (a POST straight to it: any process serves any POST).
      const COUNT = 300;
      const call = fetch(`http://127.0.0.1:${producer.port}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': sessionId,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'emit-1',
          method: 'tools/call',
          params: { name: 'emit', arguments: { count: COUNT, tag: 'stream', everyMs: 5 } },
        }),
      }).then((response) => response.text());

      await waitFor(() => seen.length >= 30, { timeoutMs: 20_000, what: '30 events on the GET stream' });
      await killHard(holder);
      const killedAt = seen.length;
      expect(await call).toContain(producer.name);
      await waitFor(() => seen.length >= COUNT, {
        timeoutMs: 30_000,
        what: `${COUNT} events after the kill`,
      }).catch((error: Error) => {
        throw new Error(
          `${error.message}: got ${seen.length}, missing ${Array.from({ length: COUNT }, (_, n) => n).filter((n) => !seen.includes(n))}, around ${seen.slice(25, 60)}; holder ${holder.port}, producer ${producer.port}, requests ${JSON.stringify(balancer.served.map((e) => `${e.method}:${e.port}`))}`,
        );
      });
      // Exactly 0..COUNT-1, each once, in order: nothing lost, nothing replayed twice.
      const doubled = seen.filter((n, i) => seen.indexOf(n) !== i);
      if (doubled.length > 0) {
        const at = seen.indexOf(doubled[0] as number);
        throw new Error(
          `doubled ${doubled} at ${at}: ${seen.slice(Math.max(0, at - 5), at + 5)} / second at ${seen.lastIndexOf(doubled[0] as number)}: ${seen.slice(seen.lastIndexOf(doubled[0] as number) - 5, seen.lastIndexOf(doubled[0] as number) + 5)}; killedAt ${killedAt}; holder ${holder.port}, producer ${producer.port}, requests ${JSON.stringify(balancer.served.map((e) => `${e.method}:${e.port}`))}`,
        );
      }
      expect(seen).toEqual(Array.from({ length: COUNT }, (_, n) => n));
      expect(killedAt).toBeLessThan(COUNT);
      // The stream was resumed on a process that was alive (with Last-Event-ID).
      const resumed = balancer.served.filter((entry) => entry.method === 'GET' && entry.port !== holder.port);
      expect(resumed.length).toBeGreaterThan(0);
    }, 90_000);

    it('SIGTERM drains: new work goes elsewhere (503 + Retry-After), the in-flight request finishes, the GET stream resumes elsewhere, no event lost or doubled', async () => {
      const { balancer, nodes } = await startCluster(json);
      const mcp = xmcpClient();
      const seen: number[] = [];
      let warm = 0;
      mcp.on('log', ({ data }) => {
        const entry = data as { tag?: string; n?: number };
        if (entry.tag === 'drain') seen.push(entry.n as number);
        if (entry.tag === 'warm-up') warm++;
      });
      await mcp.connect(
        new StreamableHttpClientTransport(new URL(balancer.url), {
          reconnect: { initialDelayMs: 50, maxDelayMs: 500, maxAttempts: 20 },
        }),
      );
      const get = await waitFor(() => balancer.served.find((entry) => entry.method === 'GET'), {
        what: 'the GET stream',
      });
      const holder = nodes.find((node) => node.port === get.port) as Node;
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'emit', arguments: { count: 1, tag: 'warm-up', everyMs: 0 } });
          return warm > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the GET stream to carry an event' },
      );
      const sessionId = get.session as string;
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': sessionId,
      };
      // The process that holds the GET stream also runs the request in flight when it is told to stop.
      const COUNT = 150;
      const call = fetch(`http://127.0.0.1:${holder.port}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'drain-1',
          method: 'tools/call',
          params: { name: 'emit', arguments: { count: COUNT, tag: 'drain', everyMs: 5 } },
        }),
      }).then((response) => response.text());
      await waitFor(() => seen.length >= 20, { timeoutMs: 20_000, what: '20 events on the GET stream' });
      const exited = new Promise<number | null>((resolve) => holder.child.once('exit', resolve));
      holder.child.kill('SIGTERM');
      // Draining: refused with 503 + Retry-After, so a balancer sends the request elsewhere.
      const refused = await waitFor(
        async () => {
          const response = await fetch(`http://127.0.0.1:${holder.port}/mcp`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'ping' }),
          });
          await response.text();
          return response.status === 503 ? response : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 20, what: 'the draining process to refuse new work' },
      );
      expect(refused.headers.get('retry-after')).toBe('1');
      // Through the balancer, new calls keep working, on the other processes only.
      for (let i = 0; i < 3; i++) {
        expect(text(await mcp.callTool({ name: 'whoami', arguments: {} }))).not.toBe(holder.name);
      }
      // The request in flight on the draining process finished; then the process exited by itself.
      expect(await call).toContain(holder.name);
      expect(await exited).toBe(0);
      await waitFor(() => seen.length >= COUNT, { timeoutMs: 20_000, what: `${COUNT} events` }).catch(
        (error: Error) => {
          throw new Error(`${error.message}: got ${seen.length}: ${seen.slice(0, 40)}…`);
        },
      );
      // Exactly 0..COUNT-1, each once, in order: nothing lost, nothing replayed twice.
      expect(seen).toEqual(Array.from({ length: COUNT }, (_, n) => n));
      expect(balancer.served.some((entry) => (entry.retried ?? 0) > 0)).toBe(true);
      const resumed = balancer.served.filter((entry) => entry.method === 'GET' && entry.port !== holder.port);
      expect(resumed.length).toBeGreaterThan(0);
    }, 60_000);

    it('a request running on a killed process fails; the session goes on on the others', async () => {
      const { balancer, nodes } = await startCluster(json);
      const mcp = xmcpClient();
      await mcp.connect(
        new StreamableHttpClientTransport(new URL(balancer.url), { standaloneStream: false }),
      );
      // The next POST goes to the node after the last one used (round robin).
      const hanging = mcp.callTool({ name: 'hang', arguments: {} }, { timeout: 30_000 }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      const post = await waitFor(
        () =>
          balancer.served.filter((entry) => entry.method === 'POST').length >= 3
            ? balancer.served.at(-1)
            : undefined,
        { what: 'the hanging POST' },
      );
      const runner = nodes.find((node) => node.port === post.port) as Node;
      await killHard(runner);
      // Its client gets an error (the connection to the dead process ended), not a hang.
      expect(await hanging).toBeInstanceOf(Error);
      const ranOn = new Set<string>();
      for (let i = 0; i < 4; i++) ranOn.add(text(await mcp.callTool({ name: 'whoami', arguments: {} })));
      expect(ranOn.has(runner.name)).toBe(false);
      expect(ranOn.size).toBe(2);
    }, 60_000);
  });

  describe('three processes on Redis, 2025-11-25 tasks', () => {
    it('a task started on one process is read, awaited and cancelled through the others', async () => {
      const { balancer } = await startCluster(false);
      const mcp = xmcpClient();
      await mcp.connect(
        new StreamableHttpClientTransport(new URL(balancer.url), { standaloneStream: false }),
      );
      const { task } = await mcp.callToolAsTask({ name: 'slow', arguments: { ms: 1_500 } }, { ttl: 60_000 });
      const readOn = new Set<number>();
      for (let i = 0; i < 3; i++) {
        const state = await mcp.getTask(task.taskId);
        expect(state.taskId).toBe(task.taskId);
        readOn.add(balancer.served.at(-1)?.port as number);
      }
      expect(readOn.size).toBe(3);
      const done = await waitFor(
        async () => {
          const state = await mcp.getTask(task.taskId);
          return state.status === 'completed' ? state : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100, what: 'the task to complete' },
      );
      expect(done.status).toBe('completed');
      expect(text(await mcp.getTaskResult(task.taskId))).toMatch(/^slow on [abc]$/);

      const second = await mcp.callToolAsTask({ name: 'slow', arguments: { ms: 20_000 } }, { ttl: 60_000 });
      const startedOn = balancer.served.at(-1)?.port;
      const cancelled = await mcp.cancelTask(second.task.taskId);
      expect(cancelled.status).toBe('cancelled');
      expect(balancer.served.at(-1)?.port).not.toBe(startedOn);
      for (let i = 0; i < 3; i++) expect((await mcp.getTask(second.task.taskId)).status).toBe('cancelled');
    }, 60_000);
  });

  describe('three processes on Redis, 2026-07-28', () => {
    it('requestState sealed on one process is opened on another; subscriptions/listen hears changes raised on any process', async () => {
      const { balancer } = await startCluster(false);
      const mcp = new Client({ name: 'x-mcp-modern', version: '1.0.0' }, { protocolVersion: 'modern' });
      mcp.setElicitationHandler(() => ({ action: 'accept', content: { ok: true } }));
      cleanup.push(() => mcp.close());
      await mcp.connect(new StreamableHttpClientTransport(new URL(balancer.url)));
      expect(mcp.protocolVersion).toBe('2026-07-28');

      // Each ask is two POSTs (input_required, then the retry carrying requestState): round robin sends
      // the retry to another process than the one that sealed the state.
      const before = balancer.served.length;
      for (let i = 0; i < 3; i++) {
        expect(text(await mcp.callTool({ name: 'ask', arguments: {} }))).toMatch(
          /^[abc]:accept:\{"ok":true\}$/,
        );
      }
      const posts = balancer.served.slice(before);
      expect(posts.length).toBe(6);
      for (let i = 0; i < 6; i += 2) expect(posts[i]?.port).not.toBe(posts[i + 1]?.port);

      const heard: string[] = [];
      const subscription = mcp.listen({ resourceSubscriptions: ['note://a'] });
      const reading = (async () => {
        for await (const notification of subscription) heard.push(notification.method);
      })().catch(() => undefined);
      // The listen stream is open once a change raised by a tool reaches it.
      await waitFor(
        async () => {
          await mcp.callTool({ name: 'touch', arguments: {} });
          return heard.length > 0;
        },
        { timeoutMs: 20_000, intervalMs: 50, what: 'the listen stream to hear a change' },
      );
      const ranOn = new Set<string>();
      const start = heard.length;
      for (let i = 0; i < 3; i++) ranOn.add(text(await mcp.callTool({ name: 'touch', arguments: {} })));
      await waitFor(() => heard.length >= start + 3, { what: 'three more changes' });
      expect(ranOn.size).toBe(3);
      expect(heard.every((method) => method === 'notifications/resources/updated')).toBe(true);
      await subscription.return?.();
      await reading;
    }, 60_000);
  });

  /** Per-request `_meta` of a 2026-07-28 client declaring the tasks extension (SEP-2663). */
  const TASKS_META = {
    [MetaKey.ProtocolVersion]: '2026-07-28',
    [MetaKey.ClientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} },
    [MetaKey.ClientInfo]: { name: 'raw-2026', version: '1.0.0' },
  };
  let rpcId = 0;

  /** One 2026-07-28 POST straight to one process (the test picks which), with the routing headers. */
  async function post(
    port: number,
    method: string,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Response> {
    const name = params['taskId'] ?? params['name'];
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    if (typeof name === 'string') headers['mcp-name'] = name;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method,
      params: { ...params, _meta: TASKS_META },
    });
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers,
      body,
      signal: signal ?? null,
    });
    expect(response.status).toBe(200);
    return response;
  }

  /** The JSON-RPC messages of a reply, JSON or SSE, as they arrive. */
  async function* messagesOf(response: Response): AsyncGenerator<Record<string, unknown>> {
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      yield (await response.json()) as Record<string, unknown>;
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        buffer = buffer.slice(end + 2);
        if (data !== '') yield JSON.parse(data) as Record<string, unknown>;
        end = buffer.indexOf('\n\n');
      }
    }
  }

  async function call(
    port: number,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    for await (const message of messagesOf(await post(port, method, params))) {
      if (message['id'] === undefined) continue;
      if (message['error'] !== undefined) throw new Error(`${method}: ${JSON.stringify(message['error'])}`);
      return message['result'] as Record<string, unknown>;
    }
    throw new Error(`${method}: no response`);
  }

  describe('three processes on Redis, 2026-07-28 tasks extension (SEP-2663)', () => {
    it('a task on one process is read, answered, cancelled and heard on the others', async () => {
      const { nodes } = await startCluster(false);
      const [a, b, c] = nodes as [Node, Node, Node];
      const aborted: string[] = [];
      createInterface({ input: a.child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        const parsed = JSON.parse(line) as { aborted?: string };
        if (parsed.aborted !== undefined) aborted.push(parsed.aborted);
      });

      // The task runs on a and asks for input; c holds the subscriptions/listen stream for it.
      const created = await call(a.port, 'tools/call', { name: 'confirm', arguments: {} });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created['taskId'] as string;
      const listening = new AbortController();
      cleanup.push(async () => listening.abort());
      const heard: Record<string, unknown>[] = [];
      const listen = await post(
        c.port,
        'subscriptions/listen',
        { notifications: { taskIds: [taskId] } },
        listening.signal,
      );
      let acknowledged = false;
      const reading = (async () => {
        for await (const message of messagesOf(listen)) {
          if (message['method'] === 'notifications/subscriptions/acknowledged') acknowledged = true;
          if (message['method'] === 'notifications/tasks')
            heard.push(message['params'] as Record<string, unknown>);
        }
      })().catch(() => undefined);
      await waitFor(() => acknowledged, { timeoutMs: 10_000, what: 'the listen stream on c' });

      // tasks/get on b reads the task a runs, its input request included (announced through the fan-out).
      const waiting = await waitFor(
        async () => {
          const task = await call(b.port, 'tasks/get', { taskId });
          return task['status'] === 'input_required' &&
            Object.keys(task['inputRequests'] as object).length > 0
            ? task
            : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, what: 'input_required on b' },
      );
      const [key] = Object.keys(waiting['inputRequests'] as object);
      expect((waiting['inputRequests'] as Record<string, { method: string }>)[key as string]?.method).toBe(
        'elicitation/create',
      );
      // "SEP-2663: the client answers with tasks/update": taken by b, it reaches the handler waiting on a.
      expect(
        await call(b.port, 'tasks/update', {
          taskId,
          inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
        }),
      ).toMatchObject({ resultType: 'complete' });
      const done = await waitFor(
        async () => {
          const task = await call(c.port, 'tasks/get', { taskId });
          return task['status'] === 'completed' ? task : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, what: 'the task to complete' },
      );
      expect(done['result']).toMatchObject({ content: [{ type: 'text', text: 'a:accept:{"ok":true}' }] });
      // Status raised on a reached the listen stream on c: working again, completed (input_required too
      // when the stream was acknowledged before the tool asked).
      await waitFor(() => heard.some((task) => task['status'] === 'completed'), {
        timeoutMs: 10_000,
        what: 'notifications/tasks completed on c',
      });
      const statuses = heard.map((task) => task['status']);
      expect(statuses.slice(-2)).toEqual(['working', 'completed']);
      expect(statuses.length - (statuses[0] === 'input_required' ? 1 : 0)).toBe(2);
      expect(heard.every((task) => task['taskId'] === taskId)).toBe(true);

      // tasks/cancel on b stops the work on a at once: no tasks/get reaches a and the tool writes no status
      // (the two ways a learned of a cancellation before), so only the fan-out's taskCancel can stop it.
      const second = await call(a.port, 'tools/call', { name: 'wait', arguments: {} });
      const secondId = second['taskId'] as string;
      expect(await call(b.port, 'tasks/cancel', { taskId: secondId })).toMatchObject({
        resultType: 'complete',
      });
      await waitFor(() => aborted.length > 0, { timeoutMs: 5_000, what: 'the work on a to stop' });
      expect(aborted).toEqual(['a']);
      expect((await call(c.port, 'tasks/get', { taskId: secondId }))['status']).toBe('cancelled');
      listening.abort();
      await reading;
    }, 60_000);

    it('a process started after the task asked for input, and a request added while it waits: the store shows them everywhere', async () => {
      const prefix = `k${clusters++}:`;
      const [a, b] = await Promise.all([startProcess('a', prefix, false), startProcess('b', prefix, false)]);
      const keysOn = async (node: Node, taskId: string): Promise<string[]> => {
        const task = await call(node.port, 'tasks/get', { taskId });
        return task['status'] === 'input_required' ? Object.keys(task['inputRequests'] as object).sort() : [];
      };
      const created = await call(a.port, 'tools/call', { name: 'confirmTwice', arguments: {} });
      const taskId = created['taskId'] as string;
      await waitFor(async () => (await keysOn(b, taskId)).length === 1, {
        timeoutMs: 10_000,
        intervalMs: 50,
        what: 'the first input request on b',
      });
      // d starts after the task asked: it heard no status message of the task, only the store can tell it.
      const d = await startProcess('d', prefix, false);
      const late = await call(d.port, 'tasks/get', { taskId });
      expect(late['status']).toBe('input_required');
      // SEP-2663 "Task Polling": an input_required DetailedTask carries its outstanding inputRequests.
      expect(late['inputRequests']).toEqual({
        elicitation_0: {
          method: 'elicitation/create',
          params: expect.objectContaining({ message: 'first on a' }),
        },
      });
      // A second request while the task already waits: no status change, so no status message either.
      await call(a.port, 'tools/call', { name: 'release', arguments: {} });
      for (const node of [b, d]) {
        await waitFor(async () => (await keysOn(node, taskId)).join() === 'elicitation_0,elicitation_1', {
          timeoutMs: 10_000,
          intervalMs: 50,
          what: `both input requests on ${node.name}`,
        });
      }
      const accept = { action: 'accept', content: { ok: true } };
      await call(d.port, 'tasks/update', { taskId, inputResponses: { elicitation_0: accept } });
      await waitFor(async () => (await keysOn(b, taskId)).join() === 'elicitation_1', {
        timeoutMs: 10_000,
        intervalMs: 50,
        what: 'the answered request gone on b',
      });
      await call(b.port, 'tasks/update', { taskId, inputResponses: { elicitation_1: accept } });
      const done = await waitFor(
        async () => {
          const task = await call(d.port, 'tasks/get', { taskId });
          return task['status'] === 'completed' ? task : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, what: 'the task to complete' },
      );
      expect(done['result']).toMatchObject({ content: [{ type: 'text', text: 'accept,accept' }] });
    }, 60_000);
  });
});
