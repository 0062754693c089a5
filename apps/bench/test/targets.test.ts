import { describe, expect, it } from 'vitest';
import { targetTable } from '../src/report/targets.js';
import type { CellSummary, RunResults } from '../src/results.js';
import type { SdkName } from '../src/types.js';

function w1Cells(callsPerSec: Partial<Record<SdkName, number>>): CellSummary[] {
  return Object.entries(callsPerSec).map(([sdk, value]) => ({
    workload: 'w1',
    transport: 'stdio',
    sdk: sdk as SdkName,
    metrics: { callsPerSec: value },
    samples: 1,
  }));
}

function resultsWith(cells: CellSummary[]): RunResults {
  return { cells, transports: ['stdio'], installSize: {} } as unknown as RunResults;
}

/** The target table's stdio cell of one row. */
function cellOf(markdown: string, label: string): string | undefined {
  const row = markdown.split('\n').find((line) => line.startsWith(`| ${label} |`));
  return row?.slice(2, -2).split(' | ')[1];
}

describe('target table', () => {
  it('says beside a missed "2× best official" cell what share of raw 2× the best official SDK is', () => {
    const { markdown } = targetTable(resultsWith(w1Cells({ raw: 1000, 'x-mcp': 900, v1: 530, v2: 300 })));
    // 900 / 530 = 1.70×; 2 × 530 / 1000 = 106% of raw (v1 is the better official SDK here).
    expect(cellOf(markdown, 'W1 calls/s ≥ 2× best official')).toBe('❌ 1.70× (2× is 106% of raw)');
    expect(cellOf(markdown, 'W1 calls/s ≥ 70% of raw')).toBe('✅ 0.90×');
  });

  it('adds nothing to a met cell', () => {
    const { markdown, met } = targetTable(
      resultsWith(w1Cells({ raw: 1000, 'x-mcp': 900, v1: 300, v2: 440 })),
    );
    expect(cellOf(markdown, 'W1 calls/s ≥ 2× best official')).toBe('✅ 2.05×');
    expect(met).toBe(2);
  });

  it('judges W6 per kind: RSS and p99 as ratios to raw, the loop stall in ms against 50', () => {
    const w6 = (sdk: SdkName, rssPerSessionKiB: number, p99Ms: number, loopStallMs: number): CellSummary => ({
      workload: 'w6',
      transport: 'stdio',
      sdk,
      metrics: { rssPerSessionKiB, p99Ms, loopStallMs },
      samples: 1,
    });
    // The target table's column here is `stdio` (resultsWith); W6 rows apply to ws, http-sse and grpc only.
    const { markdown } = targetTable(resultsWith([w6('raw', 10, 4, 30), w6('x-mcp', 11, 10, 42)]));
    expect(cellOf(markdown, 'W6 server RSS/session ≤ 1.2× raw')).toBe('—');
    const ws = {
      cells: [w6('raw', 10, 4, 30), w6('x-mcp', 11, 10, 42)].map((cell) => ({ ...cell, transport: 'ws' })),
      transports: ['ws'],
      installSize: {},
    } as unknown as RunResults;
    const table = targetTable(ws).markdown;
    expect(cellOf(table, 'W6 server RSS/session ≤ 1.2× raw')).toBe('✅ 1.10×');
    expect(cellOf(table, 'W6 `tools/call` p99, all open, ≤ 2× raw')).toBe('❌ 2.50×');
    expect(cellOf(table, 'W6 event-loop stall while all connect ≤ 50 ms')).toBe('✅ 42.0 ms');
  });
});
