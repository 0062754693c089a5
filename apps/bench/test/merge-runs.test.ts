import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../src/report/markdown.js';
import { type CellSummary, mergeRuns, type RunResults } from '../src/results.js';
import { parseCli } from '../src/cli-options.js';

const cell = (workload: string, transport: string, sdk: string, callsPerSec: number): CellSummary =>
  ({ workload, transport, sdk, metrics: { callsPerSec }, samples: 3 }) as CellSummary;

function run(date: string, cells: CellSummary[], transports: string[]): RunResults {
  return {
    date,
    machine: {
      node: '20',
      platform: 'linux',
      cpus: 2,
      cpuModel: 'CPU',
      memoryGiB: 24,
      loadAverage: [3, 2, 1],
      loadAverageEnd: [3, 2, 1],
      source: 'abc',
    },
    mode: 'full',
    args: [],
    repetitions: 3,
    plannedRepetitions: 3,
    counts: {},
    sdks: ['raw', 'x-mcp'],
    transports,
    workloads: ['w4'],
    cells,
    coldStartMs: { 'x-mcp': 50 },
    installSize: {},
    durationSec: 100,
  } as unknown as RunResults;
}

describe('pnpm bench --merge', () => {
  it('replaces exactly the cells measured again, keeps every other cell and the base run’s date, and lists what changed', () => {
    const base = run(
      '2026-12-07T23:00:00.000Z',
      [cell('w4', 'ws', 'x-mcp', 0), cell('w4', 'ws', 'raw', 500), cell('w4', 'stdio', 'x-mcp', 9)],
      ['stdio', 'ws'],
    );
    const later = run('2026-12-08T00:00:00.000Z', [cell('w4', 'ws', 'x-mcp', 400)], ['ws']);
    const merged = mergeRuns(base, later);
    expect(merged.date).toBe(base.date);
    expect(merged.transports).toEqual(['stdio', 'ws']);
    expect(
      merged.cells.map((c) => `${c.workload}/${c.transport}/${c.sdk}=${c.metrics.callsPerSec}`).sort(),
    ).toEqual(['w4/stdio/x-mcp=9', 'w4/ws/raw=500', 'w4/ws/x-mcp=400']);
    expect(merged.coldStartMs).toEqual({ 'x-mcp': 50 });
    expect(merged.remeasured).toEqual({ date: later.date, loadAverage: [3, 2, 1], cells: ['w4/ws/x-mcp'] });
    expect(renderMarkdown(merged)).toContain(
      'Re-measured on 2026-12-08T00:00:00.000Z (`--merge`, load average 3.0 / 2.0 / 1.0 at start): w4/ws/x-mcp.',
    );
  });

  it('is a flag of pnpm bench', () => {
    expect(parseCli(['--merge', 'apps/bench/results.json']).merge).toBe('apps/bench/results.json');
    expect(parseCli([]).merge).toBeUndefined();
  });
});
