import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLUSTER = join(APP_DIR, 'dist', 'cluster.js');

interface Hop {
  messages: number;
  p50Ms: number;
  p99Ms: number;
  commands?: number;
  roundTrips?: number;
  shards?: number;
}
interface Row {
  setup: string;
  processes: number;
  stores: string;
  cluster?: boolean;
  calls: number;
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  local: Hop;
  forwarded?: Hop;
  elicitation: Hop;
}

// Not a timed test: the cluster mode runs end to end (real redis-server, real processes, the balancer)
// and reports every figure. The build step of `pnpm test` (turbo) produces dist/ first.
describe('pnpm --dir apps/bench cluster', () => {
  const dir = mkdtempSync(join(tmpdir(), 'x-bench-cluster-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs W5 in the five setups and reports throughput, latency, hop latency, Redis round trips and commands', async () => {
    expect(existsSync(CLUSTER), 'apps/bench is not built: run `pnpm build`').toBe(true);
    const json = join(dir, 'cluster.json');
    const { stdout } = await run(
      process.execPath,
      [CLUSTER, '--sessions', '6', '--calls', '3', '--messages', '5', '--reps', '1', '--json', json],
      { cwd: APP_DIR, timeout: 170_000 },
    );
    for (const setup of [
      '1 process, in-memory',
      '1 process, Redis',
      '3 processes, Redis',
      '3 processes, Redis, store then publish',
      '3 processes, Redis Cluster (3 primaries)',
    ])
      expect(stdout).toContain(`| ${setup} |`);
    const rows = JSON.parse(readFileSync(json, 'utf8')) as Row[];
    expect(rows.map((row) => [row.processes, row.stores])).toEqual([
      [1, 'memory'],
      [1, 'redis'],
      [3, 'redis'],
      [3, 'redis'],
      [3, 'redis'],
    ]);
    expect(rows.map((row) => row.cluster === true)).toEqual([false, false, false, false, true]);
    for (const row of rows) {
      expect(row.calls).toBe(18);
      for (const figure of [row.callsPerSec, row.p50Ms, row.p99Ms, row.local.p50Ms, row.local.p99Ms])
        expect(figure).toBeGreaterThan(0);
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms);
      expect(row.local.messages).toBeGreaterThan(0);
      expect(row.elicitation.p50Ms).toBeGreaterThan(0);
    }
    // Without Redis there is nothing to count; on Redis every stream message costs commands.
    expect(rows[0]?.local.commands).toBeUndefined();
    expect(rows[1]?.local.commands).toBeGreaterThan(0);
    // Only with 3 processes are messages raised away from the stream's holder (forwarded through Redis).
    expect(rows[1]?.forwarded).toBeUndefined();
    const forwarded = rows[2]?.forwarded;
    expect(forwarded?.messages).toBeGreaterThan(0);
    expect(forwarded?.p50Ms).toBeGreaterThan(0);
    expect(forwarded?.commands).toBeGreaterThan(0);
    // Issue #27: one Redis round trip per forwarded message (one EVALSHA: XADD, PEXPIRE, PUBLISH);
    // two when the event store cannot publish (MULTI … EXEC, then PUBLISH). Averages over 6 rounds of 5
    // messages, so a stray session refresh moves them by a fraction, not by one.
    for (const [row, trips] of [
      [rows[1]?.local, 1],
      [forwarded, 1],
      [rows[3]?.forwarded, 2],
    ] as const) {
      expect(row?.roundTrips).toBeGreaterThan(trips - 0.5);
      expect(row?.roundTrips).toBeLessThan(trips + 0.5);
    }
    // Issue #41: on a 3-primary cluster too (one EVALSHA on the stream's primary: XADD, PEXPIRE, SPUBLISH).
    // The cluster client's own PINGs and topology reads land in and out of the window and its baseline, so
    // the average moves by half a trip either way (0.5 and 1.35 seen at 6 × 5 messages under load); the
    // exact check on a cluster is the per-node count below (one primary). Two trips would still fail here.
    for (const row of [rows[4]?.local, rows[4]?.forwarded]) {
      expect(row?.roundTrips).toBeGreaterThan(0);
      expect(row?.roundTrips).toBeLessThan(2);
    }
    // Issue #41: a forwarded message touches one primary of the three (per-node INFO commandstats);
    // off a cluster nothing is counted per node.
    expect(rows[4]?.forwarded?.shards).toBe(1);
    expect(rows[4]?.local.shards).toBe(1);
    expect(rows[2]?.forwarded?.shards).toBeUndefined();
    // The answer to a server→client request, POSTed to another process, costs commands there.
    expect(rows[0]?.elicitation.commands).toBeUndefined();
    expect(rows[2]?.elicitation.commands).toBeGreaterThan(0);
  }, 180_000);
});
