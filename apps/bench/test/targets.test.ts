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
});
