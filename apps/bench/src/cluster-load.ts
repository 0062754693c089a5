// `pnpm --dir apps/bench cluster-load`: the load test of issue #41, not part of `pnpm test`. Three x-mcp
// server processes (legacy Streamable HTTP; session store, event store, message bus and fan-out on Redis)
// on a 3-primary Redis Cluster; N sessions opened and kept open (each with its GET stream), then each
// makes calls whose tool raises a message on the session's GET stream. Every request goes to the next
// process round robin (no affinity), so most stream messages are forwarded through Redis.
// Reports call and stream-message p50/p99, calls/s, Redis memory (per session, per event), the server
// processes' memory and every error (expected: none).
// Flags: --sessions N (10 000) --calls N per session (3) --concurrency N requests in flight (200)
// --json FILE.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { spawnListening } from './cluster/spawn-listening.js';
import { type BenchRedis, BENCH_CLUSTER_PRIMARIES, startBenchRedisCluster } from './cluster/redis-server.js';
import { percentile } from './stats.js';
import { fileURLToPath } from 'node:url';

/** Sessions the load test opens unless `--sessions` says otherwise (issue #41). */
export const DEFAULT_LOAD_SESSIONS = 10_000;
/** Calls each session makes, each raising one GET-stream message. */
export const DEFAULT_LOAD_CALLS = 3;
/** Opens and calls in flight at once, over all sessions. */
export const DEFAULT_LOAD_CONCURRENCY = 200;
/** How long the last stream messages may take to arrive after the last call answered. */
export const DEFAULT_LOAD_DRAIN_MS = 120_000;
/** Server processes. */
const PROCESSES = 3;
const SERVER = fileURLToPath(new URL('./cluster/cluster-server.js', import.meta.url));

/** What one run measured (`--json`). */
export interface LoadReport {
  sessions: number;
  callsPerSession: number;
  processes: number;
  primaries: number;
  openSeconds: number;
  callSeconds: number;
  callsPerSec: number;
  call: { p50Ms: number; p99Ms: number };
  /** From the tool raising it (any process) to its arrival on the session's GET stream. */
  streamMessage: { received: number; p50Ms: number; p99Ms: number };
  /** `used_memory` over all primaries, bytes: before, with every session open, after the calls. */
  redisMemory: { baseline: number; sessionsOpen: number; afterCalls: number };
  redisBytesPerSession: number;
  redisBytesPerEvent: number;
  /** The server processes' resident memory with every session open, bytes, summed. */
  serverRss: number;
  errors: { open: number; call: number; transport: number; missingMessages: number; samples: string[] };
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

/** A fetch that sends each request to the next server, round robin: any process serves any request. */
function roundRobinFetch(ports: number[]): typeof fetch {
  let next = 0;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    url.port = String(ports[next++ % ports.length]);
    return fetch(url, init);
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: String(DEFAULT_LOAD_SESSIONS) },
      calls: { type: 'string', default: String(DEFAULT_LOAD_CALLS) },
      concurrency: { type: 'string', default: String(DEFAULT_LOAD_CONCURRENCY) },
      json: { type: 'string' },
    },
  });
  const sessions = Number(values.sessions);
  const calls = Number(values.calls);
  const concurrency = Number(values.concurrency);
  const log = (line: string): void => {
    process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  };
  const errors: LoadReport['errors'] = { open: 0, call: 0, transport: 0, missingMessages: 0, samples: [] };
  const fail = (kind: 'open' | 'call' | 'transport', error: unknown): void => {
    errors[kind]++;
    const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : '';
    if (errors.samples.length < 10) errors.samples.push(`${kind}: ${String(error)}${cause}`);
  };

  const redis: BenchRedis = await startBenchRedisCluster();
  const children: ChildProcess[] = [];
  const clients: Client[] = [];
  try {
    const answers: Array<Array<(line: string) => void>> = [];
    const servers = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) => {
        const queue: Array<(line: string) => void> = [];
        answers.push(queue);
        const name = String.fromCharCode(97 + i);
        return spawnListening([SERVER, 'cluster', name, redis.url], `server ${name}`, (line) =>
          queue.shift()?.(line),
        );
      }),
    );
    children.push(...servers.map((server) => server.child));
    const serverRss = async (): Promise<number> => {
      const rss = await Promise.all(
        servers.map(
          ({ child }, i) =>
            new Promise<number>((resolve) => {
              answers[i]?.push((line) => resolve((JSON.parse(line) as { rss: number }).rss));
              child.stdin?.write('memory\n');
            }),
        ),
      );
      return rss.reduce((a, b) => a + b, 0);
    };
    const fetcher = roundRobinFetch(servers.map((server) => server.port));
    const url = new URL(`http://127.0.0.1:${servers[0]?.port}/mcp`);
    const baseline = await redis.usedMemory();

    // Open every session; each keeps its GET stream open until the end.
    const messageLatencies: number[] = [];
    log(`opening ${sessions} sessions on ${PROCESSES} processes, ${BENCH_CLUSTER_PRIMARIES} primaries`);
    const openStarted = performance.now();
    await pool(
      Array.from({ length: sessions }, (_, i) => i),
      concurrency,
      async () => {
        const client = new Client({ name: 'bench-load', version: '1.0.0' }, { protocolVersion: 'legacy' });
        client.on('log', ({ data }) => {
          messageLatencies.push(
            performance.timeOrigin + performance.now() - (data as { sentAt: number }).sentAt,
          );
        });
        const transport = new StreamableHttpClientTransport(url, { fetch: fetcher });
        try {
          await client.connect(transport);
          transport.onerror = (error) => fail('transport', error);
          clients.push(client);
          if (clients.length % 1000 === 0) log(`${clients.length} open`);
        } catch (error) {
          fail('open', error);
        }
      },
    );
    const openSeconds = (performance.now() - openStarted) / 1000;
    const sessionsOpen = await redis.usedMemory();
    const rssOpen = await serverRss();
    log(`${clients.length} open in ${openSeconds.toFixed(1)} s; calling`);

    // Calls: each raises one message on its session's GET stream (held by any of the processes).
    const callLatencies: number[] = [];
    const work = clients.flatMap((client) => Array.from({ length: calls }, () => client));
    const callStarted = performance.now();
    await pool(work, concurrency, async (client) => {
      const t0 = performance.now();
      try {
        await client.callTool({ name: 'emit', arguments: { count: 1 } });
        callLatencies.push(performance.now() - t0);
      } catch (error) {
        fail('call', error);
      }
    });
    const callSeconds = (performance.now() - callStarted) / 1000;
    const expected = callLatencies.length;
    const drainUntil = Date.now() + DEFAULT_LOAD_DRAIN_MS;
    while (messageLatencies.length < expected && Date.now() < drainUntil)
      await new Promise((resolve) => setTimeout(resolve, 50));
    errors.missingMessages = expected - messageLatencies.length;
    const afterCalls = await redis.usedMemory();
    log(`${callLatencies.length} calls in ${callSeconds.toFixed(1)} s, ${messageLatencies.length} messages`);

    callLatencies.sort((a, b) => a - b);
    messageLatencies.sort((a, b) => a - b);
    const report: LoadReport = {
      sessions,
      callsPerSession: calls,
      processes: PROCESSES,
      primaries: BENCH_CLUSTER_PRIMARIES,
      openSeconds,
      callSeconds,
      callsPerSec: callLatencies.length / callSeconds,
      call: { p50Ms: percentile(callLatencies, 50), p99Ms: percentile(callLatencies, 99) },
      streamMessage: {
        received: messageLatencies.length,
        p50Ms: percentile(messageLatencies, 50),
        p99Ms: percentile(messageLatencies, 99),
      },
      redisMemory: { baseline, sessionsOpen, afterCalls },
      redisBytesPerSession: (sessionsOpen - baseline) / Math.max(1, clients.length),
      redisBytesPerEvent: (afterCalls - sessionsOpen) / Math.max(1, expected),
      serverRss: rssOpen,
      errors,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
    const total = errors.open + errors.call + errors.transport + errors.missingMessages;
    if (total > 0) process.exitCode = 1;
  } finally {
    log('closing');
    await pool(clients, concurrency, (client) => client.close().catch(() => undefined));
    for (const child of children) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      await exited;
    }
    await redis.stop();
  }
}

await main();
