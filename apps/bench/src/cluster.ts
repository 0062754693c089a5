// `pnpm --dir apps/bench cluster`: W5 (many legacy Streamable HTTP sessions at once, a few calls each)
// through a round-robin balancer, in five setups: 1 process with in-memory state, 1 process on Redis,
// 3 processes on Redis, 3 processes on Redis storing then publishing each GET-stream message (the
// event store's one-round-trip `storeEventAndPublish` hidden), and 3 processes on a 3-primary Redis
// Cluster (sharded pub/sub); then the latency of a GET-stream message raised on the process that holds
// the stream vs on another one (forwarded through Redis), the Redis round trips and commands each costs,
// and on the cluster how many primaries it touches (per-node `INFO commandstats`).
// Flags: --sessions N (200) --calls N (10) --messages N (100) --reps N (3; medians) --json FILE.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { type BenchRedis, startBenchRedis, startBenchRedisCluster } from './cluster/redis-server.js';
import { spawnListening } from './cluster/spawn-listening.js';
import { percentile } from './stats.js';

const SERVER = fileURLToPath(new URL('./cluster/cluster-server.js', import.meta.url));
const BALANCER = fileURLToPath(new URL('./cluster/balancer.js', import.meta.url));
const OPEN_BATCH = 20;
const PROBE_ROUNDS = 6;
/** Sequential elicitation round trips measured per setup. */
const ELICITATIONS = 30;
/** The round trips of the server processes, next to the commands in a `Sample`. */
const ROUND_TRIPS = '(round trips)';
/** Commands a cluster node ran, next to the commands in a `Sample`: `NODE`, its port, the command. */
const NODE = '(node) ';

/** Redis commands by name (`INFO commandstats`) and the processes' round trips (`ROUND_TRIPS`). */
type Sample = Record<string, number>;

interface Setup {
  name: string;
  processes: number;
  redis: boolean;
  /** The event store without `storeEventAndPublish`: stored, then published (two round trips). */
  twoStep?: boolean;
  /** On the bench's Redis Cluster instead of one `redis-server`. */
  cluster?: boolean;
}

/** Latency of GET-stream messages, and Redis commands per message, by where they were raised. */
interface HopFigures {
  messages: number;
  p50Ms: number;
  p99Ms: number;
  /** Redis commands per message (all processes, as `INFO commandstats` counts them), undefined without Redis. */
  commands?: number;
  /**
   * Redis round trips per message (all processes): requests a server process sent and waited for, a
   * command or a `MULTI … EXEC` block, counted with node-redis's tracing channels (cluster-server.ts).
   */
  roundTrips?: number;
  /** The same by command name. */
  byCommand?: Record<string, number>;
  /**
   * On a Redis Cluster: the primaries a message touches, i.e. whose commands grow with the messages
   * (per-node `INFO commandstats` before and after, less a call without messages), at least half a
   * command per message.
   */
  shards?: number;
}

/** One setup's row. */
export interface ClusterRow {
  setup: string;
  processes: number;
  stores: 'memory' | 'redis';
  /** GET-stream messages stored, then published (the event store's `storeEventAndPublish` hidden). */
  twoStep?: boolean;
  /** On a Redis Cluster of `BENCH_CLUSTER_PRIMARIES` primaries. */
  cluster?: boolean;
  sessions: number;
  calls: number;
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  local: HopFigures;
  forwarded?: HopFigures;
  /**
   * A tool call that elicits (request on the call's stream, answer POSTed through the balancer: to
   * another process when there are 3): latency per call; `commands` beyond a plain call's.
   */
  elicitation: HopFigures;
}

const SETUPS: Setup[] = [
  { name: '1 process, in-memory', processes: 1, redis: false },
  { name: '1 process, Redis', processes: 1, redis: true },
  { name: '3 processes, Redis', processes: 3, redis: true },
  { name: '3 processes, Redis, store then publish', processes: 3, redis: true, twoStep: true },
  { name: '3 processes, Redis Cluster (3 primaries)', processes: 3, redis: true, cluster: true },
];

/** The round-robin balancer (`cluster/balancer.ts`) in its own process. */
interface Balancer {
  url: string;
  /** The backend port of each GET (stream) request so far, in order. */
  getPorts: number[];
  child: ChildProcess;
}

async function spawnBalancer(ports: number[]): Promise<Balancer> {
  const getPorts: number[] = [];
  const { port, child } = await spawnListening([BALANCER, ...ports.map(String)], 'the balancer', (line) => {
    if (line.startsWith('GET ')) getPorts.push(Number(line.slice(4)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, getPorts, child };
}

function newClient(): Client {
  return new Client({ name: 'bench-cluster', version: '1.0.0' }, { protocolVersion: 'legacy' });
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

/** W5 through the balancer: returns calls/s and per-call latencies. */
async function runSessions(
  url: string,
  sessions: number,
  calls: number,
): Promise<{ callsPerSec: number; p50Ms: number; p99Ms: number }> {
  const warm = newClient();
  await warm.connect(new StreamableHttpClientTransport(new URL(url)));
  for (let i = 0; i < 30; i++) await warm.callTool({ name: 'echo', arguments: { text: 'warm' } });
  await warm.close();
  const clients: Client[] = [];
  while (clients.length < sessions) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, sessions - clients.length) }, async () => {
      const client = newClient();
      await client.connect(new StreamableHttpClientTransport(new URL(url)));
      return client;
    });
    clients.push(...(await Promise.all(batch)));
  }
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  latencies.sort((a, b) => a - b);
  return {
    callsPerSec: (latencies.length * 1000) / elapsedMs,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

function delta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const [name, calls] of Object.entries(after)) {
    // The bench's own `INFO commandstats` reads.
    if (name === 'info') continue;
    const d = calls - (before[name] ?? 0);
    if (d !== 0) out[name] = d;
  }
  return out;
}

/**
 * One session whose GET stream lands on some process; `emit` calls (round robin over the processes)
 * raise `messages` notifications each, with and without (`count: 0`, the baseline of the call itself)
 * messages, so the Redis commands of the messages alone are the difference.
 */
async function probeHops(
  balancer: Balancer,
  names: Map<number, string>,
  redis: BenchRedis | undefined,
  roundTrips: () => Promise<number>,
  messages: number,
): Promise<{ local: HopFigures; forwarded?: HopFigures; elicitation: HopFigures }> {
  const sample = async (): Promise<Sample | undefined> => {
    if (redis === undefined) return undefined;
    const stats = await redis.commandStats();
    stats[ROUND_TRIPS] = await roundTrips();
    if (redis.cluster)
      // Less the bench's `INFO`, the clients' topology reads (`CLUSTER SLOTS`/`SHARDS`) and their
      // liveness `PING`s: what is left per node is the traffic's own.
      for (const [port, node] of await redis.nodeCommandStats())
        for (const [cmd, n] of Object.entries(node))
          if (cmd !== 'info' && cmd !== 'ping' && !cmd.startsWith('cluster'))
            stats[`${NODE}${port} ${cmd}`] = n;
    return stats;
  };
  const client = newClient();
  client.setElicitationHandler(() => ({ action: 'accept', content: { ok: true } }));
  const latency = { local: [] as number[], forwarded: [] as number[] };
  let holder = '';
  let received = 0;
  client.on('log', ({ data }) => {
    const { sentAt, from } = data as { sentAt: number; from: string };
    received++;
    if (holder === '') return;
    (from === holder ? latency.local : latency.forwarded).push(
      performance.timeOrigin + performance.now() - sentAt,
    );
  });
  const gets = balancer.getPorts.length;
  await client.connect(new StreamableHttpClientTransport(new URL(balancer.url)));
  try {
    await until(() => balancer.getPorts.length > gets, 'the GET stream');
    // The stream is live once a message raised on some process arrives on it.
    while (received === 0) {
      await client.callTool({ name: 'emit', arguments: { count: 1 } });
      await sleep(10);
    }
    holder = names.get(balancer.getPorts.at(-1) as number) as string;
    const baseline = new Map<string, Record<string, number>[]>();
    const loaded = new Map<string, Record<string, number>[]>();
    for (let round = 0; round < PROBE_ROUNDS; round++) {
      for (const count of [0, messages]) {
        const before = await sample();
        const expected = received + count;
        const from = textOf(await client.callTool({ name: 'emit', arguments: { count } }));
        await until(() => received >= expected, `${count} messages from ${from}`);
        const after = await sample();
        if (before === undefined || after === undefined) continue;
        const table = count === 0 ? baseline : loaded;
        const list = table.get(from) ?? [];
        list.push(delta(after, before));
        table.set(from, list);
      }
    }
    const figures = (samples: number[], local: boolean): HopFigures => {
      samples.sort((a, b) => a - b);
      const out: HopFigures = {
        messages: samples.length,
        p50Ms: percentile(samples, 50),
        p99Ms: percentile(samples, 99),
      };
      if (redis === undefined) return out;
      const perCommand: Record<string, number> = Object.create(null);
      let runs = 0;
      for (const [name, deltas] of loaded) {
        if ((name === holder) !== local) continue;
        const base = baseline.get(name) ?? [];
        for (const d of deltas)
          for (const [cmd, n] of Object.entries(d))
            perCommand[cmd] = (perCommand[cmd] ?? 0) + n / deltas.length;
        for (const d of base)
          for (const [cmd, n] of Object.entries(d))
            perCommand[cmd] = (perCommand[cmd] ?? 0) - n / base.length;
        runs++;
      }
      const byCommand: Record<string, number> = Object.create(null);
      let total = 0;
      const touched = new Set<string>();
      for (const [cmd, n] of Object.entries(perCommand)) {
        const each = n / runs / messages;
        if (cmd === ROUND_TRIPS) out.roundTrips = each;
        if (cmd.startsWith(NODE) && each >= 0.5) touched.add(cmd.slice(NODE.length).split(' ')[0] as string);
        if (cmd === ROUND_TRIPS || cmd.startsWith(NODE) || Math.abs(each) < 0.05) continue;
        byCommand[cmd] = Math.round(each * 100) / 100;
        total += each;
      }
      out.commands = total;
      out.byCommand = byCommand;
      if (redis.cluster) out.shards = touched.size;
      return out;
    };
    const elicitations: number[] = [];
    const before = await sample();
    for (let i = 0; i < ELICITATIONS; i++) {
      const t0 = performance.now();
      const answer = textOf(await client.callTool({ name: 'ask', arguments: {} }));
      elicitations.push(performance.now() - t0);
      if (!answer.endsWith(':accept')) throw new Error(`elicitation answered ${answer}`);
    }
    const after = await sample();
    elicitations.sort((a, b) => a - b);
    const elicitation: HopFigures = {
      messages: elicitations.length,
      p50Ms: percentile(elicitations, 50),
      p99Ms: percentile(elicitations, 99),
    };
    if (before !== undefined && after !== undefined) {
      // Less a plain call's commands (the `emit` calls without messages, every process).
      const plain = [...baseline.values()].flat();
      const perCall = (cmd: string): number =>
        plain.reduce((sum, d) => sum + (d[cmd] ?? 0), 0) / Math.max(1, plain.length);
      const byCommand: Record<string, number> = Object.create(null);
      let total = 0;
      const used = delta(after, before);
      for (const cmd of new Set([...Object.keys(used), ...plain.flatMap((d) => Object.keys(d))])) {
        const each = (used[cmd] ?? 0) / ELICITATIONS - perCall(cmd);
        if (cmd === ROUND_TRIPS) elicitation.roundTrips = each;
        if (cmd === ROUND_TRIPS || cmd.startsWith(NODE) || Math.abs(each) < 0.05) continue;
        byCommand[cmd] = Math.round(each * 100) / 100;
        total += each;
      }
      elicitation.commands = total;
      elicitation.byCommand = byCommand;
    }
    const result: { local: HopFigures; forwarded?: HopFigures; elicitation: HopFigures } = {
      local: figures(latency.local, true),
      elicitation,
    };
    if (latency.forwarded.length > 0) result.forwarded = figures(latency.forwarded, false);
    return result;
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function runSetup(
  setup: Setup,
  redis: BenchRedis | undefined,
  counts: { sessions: number; calls: number; messages: number },
): Promise<ClusterRow> {
  const children: ChildProcess[] = [];
  try {
    const names = new Map<number, string>();
    // Each server answers a `round-trips` line on stdin with one line; answers come back in order.
    const waiting: Array<Array<(line: string) => void>> = [];
    const started = await Promise.all(
      Array.from({ length: setup.processes }, (_, i) => {
        const name = String.fromCharCode(97 + i);
        const args = [SERVER, redis === undefined ? 'memory' : redis.cluster ? 'cluster' : 'redis', name];
        if (redis !== undefined) args.push(redis.url);
        if (setup.twoStep === true) args.push('two-step');
        const queue: Array<(line: string) => void> = [];
        waiting.push(queue);
        return spawnListening(args, `server ${name}`, (line) => queue.shift()?.(line));
      }),
    );
    const roundTrips = async (): Promise<number> => {
      const counts = await Promise.all(
        started.map(
          ({ child }, i) =>
            new Promise<number>((resolve) => {
              waiting[i]?.push((line) => resolve((JSON.parse(line) as { roundTrips: number }).roundTrips));
              child.stdin?.write('round-trips\n');
            }),
        ),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    };
    for (const [i, proc] of started.entries()) {
      children.push(proc.child);
      names.set(proc.port, String.fromCharCode(97 + i));
    }
    const balancer = await spawnBalancer(started.map((proc) => proc.port));
    children.push(balancer.child);
    const w5 = await runSessions(balancer.url, counts.sessions, counts.calls);
    const hops = await probeHops(balancer, names, redis, roundTrips, counts.messages);
    const row: ClusterRow = {
      setup: setup.name,
      processes: setup.processes,
      stores: setup.redis ? 'redis' : 'memory',
      ...(setup.twoStep === true ? { twoStep: true } : {}),
      ...(setup.cluster === true ? { cluster: true } : {}),
      sessions: counts.sessions,
      calls: counts.sessions * counts.calls,
      ...w5,
      local: hops.local,
      elicitation: hops.elicitation,
    };
    if (hops.forwarded !== undefined) row.forwarded = hops.forwarded;
    return row;
  } finally {
    for (const child of children) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      await exited;
    }
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function medianHop(hops: HopFigures[]): HopFigures {
  const out: HopFigures = {
    messages: median(hops.map((hop) => hop.messages)),
    p50Ms: median(hops.map((hop) => hop.p50Ms)),
    p99Ms: median(hops.map((hop) => hop.p99Ms)),
  };
  if (hops[0]?.commands !== undefined) {
    const total = median(hops.map((hop) => hop.commands ?? Number.NaN));
    out.commands = total;
    // The breakdown of the repetition whose total is nearest the median.
    const distance = (hop: HopFigures): number => Math.abs((hop.commands ?? 0) - total);
    const nearest = [...hops].sort((a, b) => distance(a) - distance(b))[0];
    if (nearest?.byCommand !== undefined) out.byCommand = nearest.byCommand;
  }
  if (hops[0]?.roundTrips !== undefined)
    out.roundTrips = median(hops.map((hop) => hop.roundTrips ?? Number.NaN));
  if (hops[0]?.shards !== undefined) out.shards = median(hops.map((hop) => hop.shards ?? Number.NaN));
  return out;
}

/** Each figure's median over the repetitions of one setup. */
function medianRow(rows: ClusterRow[]): ClusterRow {
  const first = rows[0] as ClusterRow;
  const row: ClusterRow = {
    ...first,
    callsPerSec: median(rows.map((r) => r.callsPerSec)),
    p50Ms: median(rows.map((r) => r.p50Ms)),
    p99Ms: median(rows.map((r) => r.p99Ms)),
    local: medianHop(rows.map((r) => r.local)),
    elicitation: medianHop(rows.map((r) => r.elicitation)),
  };
  const forwarded = rows.flatMap((r) => (r.forwarded === undefined ? [] : [r.forwarded]));
  if (forwarded.length > 0) row.forwarded = medianHop(forwarded);
  return row;
}

const ms = (value: number): string => value.toFixed(2);

function hopCell(figures: HopFigures | undefined): string {
  if (figures === undefined) return '—';
  return `${ms(figures.p50Ms)} / ${ms(figures.p99Ms)}`;
}

function commandsCell(figures: HopFigures | undefined): string {
  if (figures?.commands === undefined) return '—';
  const parts = Object.entries(figures.byCommand ?? {}).map(([cmd, n]) => `${cmd} ${n}`);
  const trips = figures.roundTrips === undefined ? '' : `**${figures.roundTrips.toFixed(2)}**; `;
  const shards =
    figures.shards === undefined ? '' : `; ${figures.shards} shard${figures.shards === 1 ? '' : 's'}`;
  return `${trips}${figures.commands.toFixed(2)} (${parts.join(', ')})${shards}`;
}

/** The Markdown table of the rows. */
export function clusterTable(rows: ClusterRow[]): string {
  const lines = [
    '| setup | sessions × calls | calls/s | call p50 / p99 ms | stream msg, holder p50 / p99 ms | stream msg, other process p50 / p99 ms | Redis round trips; cmds / msg(; shards), holder | Redis round trips; cmds / msg(; shards), other process | elicitation call p50 / p99 ms | Redis round trips; cmds / elicitation beyond a call |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.setup} | ${row.sessions} × ${row.calls / row.sessions} | ${Math.round(row.callsPerSec)} | ${ms(row.p50Ms)} / ${ms(row.p99Ms)} | ${hopCell(row.local)} | ${hopCell(row.forwarded)} | ${commandsCell(row.local)} | ${commandsCell(row.forwarded)} | ${hopCell(row.elicitation)} | ${commandsCell(row.elicitation)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '200' },
      calls: { type: 'string', default: '10' },
      messages: { type: 'string', default: '100' },
      reps: { type: 'string', default: '3' },
      json: { type: 'string' },
    },
  });
  const counts = {
    sessions: Number(values.sessions),
    calls: Number(values.calls),
    messages: Number(values.messages),
  };
  const [redis, cluster] = await Promise.all([startBenchRedis(), startBenchRedisCluster()]);
  const reps = Number(values.reps);
  const runs: ClusterRow[][] = SETUPS.map(() => []);
  try {
    // Interleaved, the first setup rotated per repetition, so load on the machine spreads over all three.
    for (let rep = 0; rep < reps; rep++) {
      for (let k = 0; k < SETUPS.length; k++) {
        const index = (rep + k) % SETUPS.length;
        const setup = SETUPS[index] as Setup;
        process.stderr.write(`rep ${rep + 1}/${reps}: ${setup.name} …\n`);
        const on = setup.cluster === true ? cluster : setup.redis ? redis : undefined;
        runs[index]?.push(await runSetup(setup, on, counts));
      }
    }
  } finally {
    await Promise.all([redis.stop(), cluster.stop()]);
  }
  const rows = runs.map(medianRow);
  process.stdout.write(`${clusterTable(rows)}\n`);
  if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);
}

await main();
