import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GUIDE_BEGIN,
  GUIDE_COLUMNS,
  GUIDE_END,
  GUIDE_ROWS,
  replaceGuideTable,
  transportGuideTable,
} from '../src/report/transport-guide.js';
import type { RunResults } from '../src/results.js';
import { GUIDE_PATH, guideText, RESULTS_JSON_PATH } from '../src/transport-guide.js';

const committedRun = JSON.parse(readFileSync(RESULTS_JSON_PATH, 'utf8')) as RunResults;

describe('docs/choosing-a-transport.md', () => {
  it('holds the table of the committed bench run (apps/bench/results.json): regenerate with pnpm --dir apps/bench transport-guide', () => {
    const guide = readFileSync(GUIDE_PATH, 'utf8');
    expect(guideText(committedRun, guide)).toBe(guide);
  });

  it('the committed run measured every row of the guide: each transport in each era it carries', () => {
    for (const row of GUIDE_ROWS) {
      const measured = committedRun.cells.find(
        (cell) => cell.workload === 'w1' && cell.transport === row.transport && cell.sdk === row.sdk,
      );
      expect(measured?.metrics.callsPerSec, `${row.label}: W1 calls/s`).toBeGreaterThan(0);
    }
  });
});

describe('transportGuideTable', () => {
  const run = {
    date: '2026-12-07T23:00:00.000Z',
    machine: {
      source: 'abc1234',
      cpus: 2,
      cpuModel: 'CPU',
      node: '20.20.2',
      loadAverage: [1, 2, 3],
      loadAverageEnd: [1.5, 2, 3],
    },
    repetitions: 3,
    counts: {
      w1Calls: 3000,
      w2Calls: 2000,
      w2InFlight: 64,
      w3Calls: 20,
      w4Connects: 200,
      w4StdioConnects: 10,
      w5Sessions: 200,
      w7Calls: 100,
    },
    sdks: ['raw', 'x-mcp'],
    transports: ['stdio', 'ws'],
    cells: [
      {
        workload: 'w1',
        transport: 'ws',
        sdk: 'x-mcp',
        metrics: { p50Ms: 0.123, callsPerSec: 8123.4 },
        samples: 3,
      },
      {
        workload: 'w1',
        transport: 'ws',
        sdk: 'raw',
        metrics: { p50Ms: 0.01, callsPerSec: 20000 },
        samples: 3,
      },
    ],
  } as unknown as RunResults;

  it('has a row per transport and era the run measured, x-mcp figures only, and a dash for a missing cell', () => {
    const lines = transportGuideTable(run).split('\n');
    expect(lines[0]).toBe(`| transport | ${GUIDE_COLUMNS.map((column) => column.label).join(' | ')} |`);
    const rows = lines.filter(
      (line) => line.startsWith('| ') && !line.startsWith('| transport') && !line.startsWith('| ---'),
    );
    // Only x-mcp (no x-mcp-modern) on stdio and ws were in this run.
    expect(rows.map((row) => row.split(' | ')[0])).toEqual([
      '| stdio, `initialize` era',
      '| WebSocket, `initialize` era',
    ]);
    const ws = rows[1]?.slice(2, -2).split(' | ') ?? [];
    expect(ws[1]).toBe('0.123');
    expect(ws[3]).toBe('8,123');
    expect(ws[2]).toBe('—');
    expect(transportGuideTable(run)).toContain('load average 1.0 / 2.0 / 3.0 at start');
  });

  it('replaces only what is between the markers, and refuses a text without them', () => {
    const text = `# head\n${GUIDE_BEGIN}\nold\n${GUIDE_END}\ntail\n`;
    expect(replaceGuideTable(text, 'new')).toBe(`# head\n${GUIDE_BEGIN}\nnew\n${GUIDE_END}\ntail\n`);
    expect(() => replaceGuideTable('# no markers', 'new')).toThrow(/missing/);
  });
});
