import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, renderBlock, renderDoc } from '../scripts/feature-table.mjs';
import { DIRECTIONS, FEATURE_CASES } from './feature-cases.js';
import { startHarness } from './feature-harness.js';
import { RUNS } from './feature-runs.js';
import { cleanupAfterEach } from './helpers.js';

const cleanup = cleanupAfterEach();
/** What each case reported; `FEATURE_OBSERVED=<file>` writes it there (to review a change of cells). */
const observed: Record<string, Record<string, string>> = {};

describe('era translation, feature by feature (the table in docs/bridge.md)', { timeout: 60_000 }, () => {
  for (const direction of DIRECTIONS) {
    describe(direction.label, () => {
      for (const [id, run] of Object.entries(RUNS)) {
        it(id, async () => {
          const h = await startHarness(direction, cleanup);
          const cell = await run(h);
          observed[id] = { ...observed[id], [direction.id]: cell };
          if (process.env['FEATURE_OBSERVED'] !== undefined)
            writeFileSync(process.env['FEATURE_OBSERVED'], JSON.stringify(observed, null, 2));
          const declared = FEATURE_CASES.find((c) => c.id === id)?.cells[direction.id];
          expect(cell).toBe(declared);
        });
      }
    });
  }
});

describe('docs/bridge.md', () => {
  it('has a case for every run and a run for every case', () => {
    expect(FEATURE_CASES.map((c) => c.id).sort()).toEqual(Object.keys(RUNS).sort());
    for (const c of FEATURE_CASES)
      expect(Object.keys(c.cells).sort()).toEqual(DIRECTIONS.map((d) => d.id).sort());
  });

  it('shows the table of feature-cases.ts: `pnpm --filter @x/bridge docs:features` writes exactly the committed file', async () => {
    const committed = readFileSync(DOC_PATH, 'utf8');
    expect(
      await renderDoc(committed),
      'docs/bridge.md is stale: run `pnpm --filter @x/bridge docs:features`',
    ).toBe(committed);
  });

  it('renders a changed cell into the block, so a stale document is caught', async () => {
    const committed = readFileSync(DOC_PATH, 'utf8');
    const edited = committed.replace('| tools | ✓ |', '| tools | ✗ |');
    expect(edited).not.toBe(committed);
    expect(await renderDoc(edited)).toBe(committed);
    expect(() => renderBlock('no block here', 'bridge-features', 'x')).toThrow(/lacks/);
  });
});
