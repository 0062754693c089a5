import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { canPin, pinningOf } from '../src/pinning.js';
import type { RunResults } from '../src/results.js';
import { type MetricName, WORKLOADS, type WorkloadName } from '../src/types.js';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(APP_DIR, 'dist', 'main.js');

/** The figures each workload must report (> 0) for every SDK. */
const EXPECTED: Record<WorkloadName, MetricName[]> = {
  w1: ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs', 'serverPeakRssMiB'],
  w2: ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs', 'serverPeakRssMiB', 'serverYoungGenMiB'],
  w3: ['mibPerSec', 'cpuPerCallUs', 'serverPeakRssMiB'],
  w4: ['connectsPerSec'],
  w5: ['callsPerSec', 'cpuPerCallUs', 'serverPeakRssMiB', 'serverYoungGenMiB'],
  'w1-warm': ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs'],
  'w2-warm': ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs'],
  'w1-split': ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs'],
  'w1-shared': ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuPerCallUs'],
  w6: ['sessionsOpen', 'p50Ms', 'p99Ms', 'openSeconds', 'serverPeakRssMiB'],
  'w6-listen': ['sessionsOpen', 'p50Ms', 'p99Ms', 'openSeconds', 'serverPeakRssMiB'],
  w7: ['sessionWallMs', 'firstCallMs', 'clientCpuMs'],
};

/** W6 has its own test (it spawns load processes); the in-memory + WebSocket run leaves it out. */
const MAIN_RUN_WORKLOADS = WORKLOADS.filter((workload) => workload !== 'w6' && workload !== 'w6-listen');

/** The transports of a workload in the in-memory + WebSocket smoke run. */
function smokeTransports(workload: WorkloadName): string[] {
  return workload === 'w5' || workload === 'w7' || workload.startsWith('w1-s') ? ['ws'] : ['in-memory', 'ws'];
}

// Not a timed test: it checks that the benchmark still runs end to end and reports every row. The
// build step of `pnpm test` (turbo) produces dist/ first.
describe('pnpm bench --smoke', () => {
  const dir = mkdtempSync(join(tmpdir(), 'x-bench-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every workload over in-memory and WebSocket for every SDK and reports each figure', async () => {
    expect(existsSync(MAIN), 'apps/bench is not built: run `pnpm build` (or `pnpm test`, which builds)').toBe(
      true,
    );
    const json = join(dir, 'results.json');
    const out = join(dir, 'RESULTS.md');
    await run(
      process.execPath,
      [
        MAIN,
        '--smoke',
        '--transports',
        'in-memory,ws',
        '--workloads',
        MAIN_RUN_WORKLOADS.join(','),
        '--json',
        json,
        '--out',
        out,
      ],
      {
        cwd: APP_DIR,
        timeout: 400_000,
      },
    );
    const results = JSON.parse(readFileSync(json, 'utf8')) as RunResults;

    const rows = results.cells.map((cell) => `${cell.workload} ${cell.transport} ${cell.sdk}`);
    // Every workload the benchmark defines must come back, for every transport it applies to.
    const expectedRows = MAIN_RUN_WORKLOADS.flatMap((workload) =>
      smokeTransports(workload).flatMap((transport) =>
        (workload.endsWith('-warm') ? ['raw', 'x-mcp'] : ['raw', 'x-mcp', 'v1', 'v2']).map(
          (sdk) => `${workload} ${transport} ${sdk}`,
        ),
      ),
    );
    expect(rows.sort()).toEqual(expectedRows.sort());

    for (const cell of results.cells) {
      // The pinned runs need `taskset` and two CPUs; without them the report says why.
      if (pinningOf(cell.workload) !== undefined && !canPin()) {
        expect(cell.note).toMatch(/taskset/);
        continue;
      }
      expect(cell.note, `${cell.workload} ${cell.transport} ${cell.sdk}`).toBeUndefined();
      for (const metric of EXPECTED[cell.workload]) {
        expect(
          cell.metrics[metric],
          `${cell.workload} ${cell.transport} ${cell.sdk} ${metric}`,
        ).toBeGreaterThan(0);
      }
    }
    for (const sdk of ['raw', 'x-mcp', 'v1', 'v2'] as const)
      expect(results.coldStartMs[sdk]).toBeGreaterThan(0);
    for (const sdk of ['x-mcp', 'v1', 'v2'] as const)
      expect(results.installSize[sdk]?.bytes).toBeGreaterThan(0);

    const markdown = readFileSync(out, 'utf8');
    for (const heading of [
      '## Targets',
      '## W1',
      '## W2',
      '## W3',
      '## W4',
      '## W5',
      '## W1 warm',
      '## W2 warm',
      '## W1 split',
      '## W1 shared',
      '## W7',
      '## Cold start',
      '## Install size',
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain('*x-mcp ÷ raw*');
    expect(markdown).toContain('| W7 session wall time ≤ 1.3× raw |');
  }, 420_000);

  it('runs W6: every session of every kind opens in the load processes, and the report has its rows', async () => {
    const json = join(dir, 'w6.json');
    const out = join(dir, 'w6.md');
    await run(
      process.execPath,
      [
        MAIN,
        '--smoke',
        '--transports',
        'http-sse,ws,grpc',
        '--workloads',
        'w6,w6-listen',
        '--no-extras',
        '--json',
        json,
        '--out',
        out,
      ],
      { cwd: APP_DIR, timeout: 400_000 },
    );
    const results = JSON.parse(readFileSync(json, 'utf8')) as RunResults;
    const sdks = ['raw', 'x-mcp', 'v1', 'v2'];
    const rows = results.cells.map((cell) => `${cell.workload} ${cell.transport} ${cell.sdk}`);
    expect(rows.sort()).toEqual(
      [
        ...['http-sse', 'ws', 'grpc'].flatMap((transport) => sdks.map((sdk) => `w6 ${transport} ${sdk}`)),
        ...sdks.map((sdk) => `w6-listen http-sse ${sdk}`),
      ].sort(),
    );
    for (const cell of results.cells) {
      const label = `${cell.workload} ${cell.transport} ${cell.sdk}`;
      // The official SDKs ship no WebSocket or gRPC server and no 2026-07-28 era: the report says so.
      if (
        (cell.sdk === 'v1' || cell.sdk === 'v2') &&
        (cell.workload === 'w6-listen' || cell.transport !== 'http-sse')
      ) {
        expect(cell.note, label).toMatch(/ships no|has no/);
        continue;
      }
      expect(cell.note, label).toBeUndefined();
      expect(cell.metrics.sessionsOpen, label).toBe(results.counts.w6Sessions);
      expect(cell.metrics.sessionErrors, label).toBe(0);
      for (const metric of EXPECTED[cell.workload])
        expect(cell.metrics[metric], `${label} ${metric}`).toBeGreaterThan(0);
      // Memory per session and the loop stall may read 0 at 20 sessions; they must be there.
      for (const metric of ['rssPerSessionKiB', 'heapPerSessionKiB', 'loopStallMs'] as const)
        expect(typeof cell.metrics[metric], `${label} ${metric}`).toBe('number');
    }
    const markdown = readFileSync(out, 'utf8');
    expect(markdown).toContain('## W6 — many sessions');
    expect(markdown).toContain('## W6 listen — ');
    for (const label of ['W6', 'W6 listen']) {
      expect(markdown).toContain(`| ${label} server RSS/session ≤ 1.2× raw |`);
      expect(markdown).toContain(`| ${label} \`tools/call\` p99, all open, ≤ 2× raw |`);
      expect(markdown).toContain(`| ${label} event-loop stall while all connect ≤ 50 ms |`);
    }
  }, 420_000);

  it('runs W7 over stdio: each short-session process spawns its server', async () => {
    const json = join(dir, 'w7-stdio.json');
    await run(
      process.execPath,
      [MAIN, '--smoke', '--transports', 'stdio', '--workloads', 'w7', '--no-extras', '--json', json],
      { cwd: APP_DIR, timeout: 400_000 },
    );
    const results = JSON.parse(readFileSync(json, 'utf8')) as RunResults;
    const rows = results.cells.map((cell) => `${cell.workload} ${cell.transport} ${cell.sdk}`);
    expect(rows.sort()).toEqual(['raw', 'x-mcp', 'v1', 'v2'].map((sdk) => `w7 stdio ${sdk}`).sort());
    for (const cell of results.cells) {
      const label = `${cell.workload} ${cell.transport} ${cell.sdk}`;
      expect(cell.note, label).toBeUndefined();
      for (const metric of EXPECTED.w7) expect(cell.metrics[metric], `${label} ${metric}`).toBeGreaterThan(0);
      // The first answer comes before the process ends.
      expect(cell.metrics.firstCallMs, label).toBeLessThan(cell.metrics.sessionWallMs ?? 0);
    }
  }, 420_000);

  it('runs the grpc column (x-mcp over the tunnel, raw: a bare grpc-js bidi stream) and says why v1/v2 have none', async () => {
    const json = join(dir, 'grpc.json');
    const workloads = ['w1', 'w2', 'w3', 'w4', 'w5'] as const;
    await run(
      process.execPath,
      [
        MAIN,
        '--smoke',
        '--transports',
        'grpc',
        '--workloads',
        workloads.join(','),
        '--no-extras',
        '--json',
        json,
      ],
      { cwd: APP_DIR, timeout: 400_000 },
    );
    const results = JSON.parse(readFileSync(json, 'utf8')) as RunResults;
    const rows = results.cells.map((cell) => `${cell.workload} ${cell.transport} ${cell.sdk}`);
    expect(rows.sort()).toEqual(
      workloads
        .flatMap((workload) => ['raw', 'x-mcp', 'v1', 'v2'].map((sdk) => `${workload} grpc ${sdk}`))
        .sort(),
    );
    for (const cell of results.cells) {
      const label = `${cell.workload} ${cell.transport} ${cell.sdk}`;
      if (cell.sdk === 'v1' || cell.sdk === 'v2') {
        expect(cell.note, label).toBe(`${cell.sdk} ships no gRPC transport`);
        continue;
      }
      expect(cell.note, label).toBeUndefined();
      for (const metric of EXPECTED[cell.workload])
        expect(cell.metrics[metric], `${label} ${metric}`).toBeGreaterThan(0);
    }
  }, 420_000);
});
