// `pnpm demo:cluster`: scale-out on Redis. Starts a redis-server, three x-mcp server processes sharing
// sessions, events, messages and changes through it, and a round-robin balancer with no session
// affinity; runs one client session across them, kill -9s the process holding its GET stream while
// events flow, SIGTERMs another (graceful drain), and prints what happened. Exits non-zero when any
// check fails. Needs `redis-server` on PATH (or REDIS_SERVER=/path/to/redis-server).
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import {
  connectRedis,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  RedisSubscriptionFanOut,
  RedisTaskStore,
} from '@x/redis';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { startBalancer } from '@x/test-kit/balancer';
import { startRedis } from '@x/test-kit/redis-server';
import { z } from 'zod';

const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- one server process (argv: serve)

async function serve(name: string, url: string): Promise<void> {
  // connectRedis: fails fast while Redis is away or frozen instead of queueing commands (see @x/redis).
  const client = await connectRedis({
    url,
    onerror: (error) => console.error(`[${name}] redis:`, error.message),
  });
  const sessionStore = new RedisSessionStore({ client });
  const server = new McpServer(
    { name: 'cluster-demo', version: '1.0.0' },
    {
      sessionStore,
      fanOut: new RedisSubscriptionFanOut({ client }),
      tasks: { store: new RedisTaskStore({ client }) },
    },
  );
  server.registerTool('whoami', { inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: name }],
  }));
  server.registerTool(
    'count',
    { inputSchema: z.object({ to: z.number(), everyMs: z.number(), tag: z.string() }) },
    async ({ to, everyMs, tag }, ctx) => {
      // Notifications outside any request: they travel on the session's GET stream, wherever it is held.
      for (let n = 0; n < to; n++) {
        await ctx.session.notification({
          method: 'notifications/message',
          params: { level: 'info', data: { tag, n } },
        });
        await sleep(everyMs);
      }
      return { content: [{ type: 'text', text: name }] };
    },
  );
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport),
    sessionStore,
    eventStore: new RedisEventStore({ client }),
    messageBus: new RedisMessageBus({ client }),
    instanceId: name,
    path: '/mcp',
  });
  const http = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port })}\n`);
  });
  process.on('SIGTERM', async () => {
    await handler.drain({ timeoutMs: 10_000 });
    await server.close();
    http.close();
    client.destroy();
    process.exit(0);
  });
}

// ---------------------------------------------------------------- the demo (no arguments)

interface Proc {
  name: string;
  port: number;
  child: ChildProcess;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function startProcess(name: string, url: string): Promise<Proc> {
  const child = spawn(process.execPath, [SELF, 'serve', name, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`process ${name} exited (${code}) before listening`)));
  });
  return { name, port, child };
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

async function demo(): Promise<boolean> {
  let ok = true;
  const check = (passed: boolean, line: string): void => {
    log(`${passed ? 'ok  ' : 'FAIL'} ${line}`);
    if (!passed) ok = false;
  };
  const redis = await startRedis();
  const procs: Proc[] = [];
  const alive = new Set<Proc>();
  let balancer: Awaited<ReturnType<typeof startBalancer>> | undefined;
  const client = new Client({ name: 'cluster-demo', version: '1.0.0' }, { protocolVersion: 'legacy' });
  try {
    log(`redis-server on ${redis.url}`);
    for (const proc of await Promise.all(['a', 'b', 'c'].map((name) => startProcess(name, redis.url)))) {
      procs.push(proc);
      alive.add(proc);
    }
    log(`processes: ${procs.map((p) => `${p.name}=:${p.port}`).join(' ')}`);
    const lb = await startBalancer(() => [...alive].map((p) => p.port));
    balancer = lb;
    log(`balancer (round robin, no stickiness) on ${lb.url}`);
    const nameOf = (port: number): string => procs.find((p) => p.port === port)?.name ?? '?';

    const seen: number[] = [];
    let warm = 0;
    client.on('log', ({ data }) => {
      const { tag, n } = data as { tag?: string; n?: number };
      if (tag === 'warm-up') warm++;
      else if (typeof n === 'number') seen.push(n);
    });
    await client.connect(
      new StreamableHttpClientTransport(new URL(lb.url), {
        reconnect: { initialDelayMs: 50, maxDelayMs: 500, maxAttempts: 20 },
      }),
    );
    const ranOn: string[] = [];
    for (let i = 0; i < 6; i++) ranOn.push(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    check(new Set(ranOn).size === 3, `one session, six calls, served by ${ranOn.join(' ')}`);

    // The GET stream carries events once one raised elsewhere arrives on it.
    await until(() => lb.served.some((entry) => entry.method === 'GET'), 'the GET stream');
    const holderPort = lb.served.find((entry) => entry.method === 'GET')?.port;
    const holder = procs.find((p) => p.port === holderPort) as Proc;
    log(`GET stream held by ${holder.name}`);
    // Live once an event raised on some process arrives on it (one raised before that is only stored).
    const warmUp = Date.now() + 20_000;
    while (warm === 0 && Date.now() < warmUp) {
      await client.callTool({ name: 'count', arguments: { to: 1, everyMs: 0, tag: 'warm-up' } });
      await sleep(20);
    }

    const TO = 200;
    const counting = client.callTool({ name: 'count', arguments: { to: TO, everyMs: 5, tag: 'main' } });
    await until(() => seen.length >= 40, '40 events');
    const exited = new Promise((resolve) => holder.child.once('exit', resolve));
    holder.child.kill('SIGKILL');
    alive.delete(holder);
    await exited;
    log(`kill -9 ${holder.name} after ${seen.length} events`);
    const counted = textOf(await counting).trim();
    await until(() => seen.length >= TO, `${TO} events`).catch(() => undefined);
    const unique = new Set(seen).size;
    check(
      unique === TO && seen.length === TO,
      `count ran on ${counted}: ${seen.length}/${TO} events, ${TO - unique} lost, ${seen.length - unique} duplicated`,
    );
    const resumedOn = lb.served
      .filter((entry) => entry.method === 'GET')
      .map((entry) => nameOf(entry.port))
      .filter((name) => name !== holder.name);
    check(resumedOn.length > 0, `GET stream resumed with Last-Event-ID on ${resumedOn.at(-1)}`);

    const survivors: string[] = [];
    for (let i = 0; i < 4; i++)
      survivors.push(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    check(!survivors.includes(holder.name), `after the kill, calls served by ${survivors.join(' ')}`);

    const leaving = [...alive][0] as Proc;
    const left = new Promise<number | null>((resolve) => leaving.child.once('exit', resolve));
    leaving.child.kill('SIGTERM');
    const code = await left;
    alive.delete(leaving);
    const last = textOf(await client.callTool({ name: 'whoami', arguments: {} }));
    check(
      code === 0 && last !== leaving.name,
      `SIGTERM ${leaving.name}: drained, exit ${code}; next call on ${last}`,
    );
  } finally {
    await client.close().catch(() => undefined);
    await balancer?.close();
    for (const proc of procs)
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await redis.stop();
  }
  log(ok ? 'cluster demo passed' : 'cluster demo FAILED');
  return ok;
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as string, process.argv[4] as string);
} else {
  const ok = await demo().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    return false;
  });
  process.exit(ok ? 0 : 1);
}
