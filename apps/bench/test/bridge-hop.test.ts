import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { describeMachine, renderHopReport } from '../src/bridge/report.js';
import { SETUP_LABELS, SETUP_NAMES } from '../src/bridge/setups.js';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const BRIDGE_HOP = join(APP_DIR, 'dist', 'bridge-hop.js');

interface Row {
  setup: string;
  p50Ms?: number;
  p99Ms?: number;
  callsPerSec?: number;
  error?: string;
}

// Not a timed test: every setup runs end to end at tiny counts (real processes: the stdio server, the
// bridge or mcp-proxy in front of it, the client), and a setup that fails makes the run exit non-zero.
describe('pnpm --dir apps/bench bridge-hop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'x-bench-bridge-hop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures every setup and reports a row for each, none failed', async () => {
    expect(existsSync(BRIDGE_HOP), 'apps/bench is not built: run `pnpm build`').toBe(true);
    const out = join(dir, 'BRIDGE.md');
    const json = join(dir, 'bridge-hop.json');
    // execFile rejects on a non-zero exit: any failed row fails the test here.
    const result = await run(
      process.execPath,
      [
        BRIDGE_HOP,
        ...['--warmup', '3', '--calls', '10', '--throughput-calls', '20', '--in-flight', '4', '--reps', '1'],
        ...['--out', out, '--json', json],
      ],
      { cwd: APP_DIR, timeout: 50_000 },
    );
    const report = readFileSync(out, 'utf8');
    expect(result.stdout).toBe(report);
    for (const setup of SETUP_NAMES) expect(report).toContain(`| ${SETUP_LABELS[setup]} | `);
    expect(report).not.toContain('error:');
    const { rows } = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[] };
    expect(rows.map((row) => row.setup)).toEqual([...SETUP_NAMES]);
    for (const row of rows) {
      expect(row.error).toBeUndefined();
      expect(row.p50Ms).toBeGreaterThan(0);
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms ?? 0);
      expect(row.callsPerSec).toBeGreaterThan(0);
    }
  }, 60_000);

  it('shows a failed setup as an error row, not as numbers', () => {
    const report = renderHopReport(
      [
        { setup: 'direct', reps: 1, p50Ms: 0.1, p99Ms: 0.2, callsPerSec: 5000 },
        { setup: 'mcp-proxy', reps: 1, error: 'mcp-proxy exited (1) before listening' },
      ],
      { warmup: 1, calls: 1, throughputCalls: 1, inFlight: 1 },
      describeMachine(),
    );
    expect(report).toContain(
      `| ${SETUP_LABELS['mcp-proxy']} | error: mcp-proxy exited (1) before listening |`,
    );
    expect(report).toContain(`| ${SETUP_LABELS.direct} | 0.100 | 0.200 |  | 5,000 |  |`);
  });
});
