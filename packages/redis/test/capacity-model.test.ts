import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../scripts/capacity-model.mjs', import.meta.url));
const INPUTS = fileURLToPath(new URL('../scripts/capacity-inputs.json', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/scale-out.md', import.meta.url));
const BEGIN = '<!-- capacity-table:begin (node packages/redis/scripts/capacity-model.mjs) -->';
const END = '<!-- capacity-table:end -->';

describe('the capacity model of docs/scale-out.md (issue #41)', () => {
  it('the committed table is what the script computes from the committed inputs', async () => {
    const { stdout } = await run(process.execPath, [SCRIPT], { timeout: 30_000 });
    const doc = readFileSync(DOC, 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(begin, `docs/scale-out.md lacks ${BEGIN}`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(begin);
    expect(doc.slice(begin + BEGIN.length, end).trim()).toBe(stdout.trim());
  });

  it('every input says how it was measured (or why assumed), and an override changes the table', async () => {
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8')) as Record<string, { value: number; how: string }>;
    for (const [name, { value, how }] of Object.entries(inputs)) {
      expect(Number.isFinite(value) && value > 0, name).toBe(true);
      expect(how.length, name).toBeGreaterThan(10);
    }
    const base = await run(process.execPath, [SCRIPT], { timeout: 30_000 });
    const busier = await run(process.execPath, [SCRIPT, '{"messagesPerSessionPerSec":1}'], {
      timeout: 30_000,
    });
    // Ten times the message rate: ten times the messages per second in the 1 000 000 row.
    expect(base.stdout).toContain('| 1,000,000 | 100,000 |');
    expect(busier.stdout).toContain('| 1,000,000 | 1,000,000 |');
  });
});
