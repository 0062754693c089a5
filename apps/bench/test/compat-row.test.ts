// Not a timed test: the compat row (src/compat-row.ts) still runs end to end at tiny counts and reports
// every row, with the official-SDK server code really on the official SDK in one and on @x/compat in the
// other. The build step (turbo) produces dist/ first; @x/compat must be built too.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROW = join(APP_DIR, 'dist', 'compat-row.js');
const dir = mkdtempSync(join(tmpdir(), 'x-bench-compat-row-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `| transport | side | calls/s | p50 | p99 | CPU/call | RSS | $schema |` */
const ROW_LINE = /^\| (stdio|Streamable HTTP) \| (official SDK 1\.32\.2|aliased onto @x\/compat) \| (.+) \|$/;

describe('compat row', () => {
  it('--smoke reports the four rows with measured figures', async () => {
    expect(existsSync(ROW), 'apps/bench is not built').toBe(true);
    const out = join(dir, 'COMPAT.md');
    await run(process.execPath, [ROW, '--smoke', '--out', out], { timeout: 240_000 });
    const rows = readFileSync(out, 'utf8')
      .split('\n')
      .map((line) => ROW_LINE.exec(line))
      .filter((match) => match !== null)
      .map((match) => {
        const cells = (match[3] ?? '').split(' | ');
        return { key: `${match[1]} / ${match[2]}`, figures: cells.slice(0, 5).map(Number), schema: cells[5] };
      });
    expect(rows.map((row) => row.key)).toEqual([
      'stdio / official SDK 1.32.2',
      'stdio / aliased onto @x/compat',
      'Streamable HTTP / official SDK 1.32.2',
      'Streamable HTTP / aliased onto @x/compat',
    ]);
    for (const row of rows) {
      expect(row.figures, row.key).toHaveLength(5);
      for (const figure of row.figures) expect(figure, row.key).toBeGreaterThan(0);
    }
    // Which SDK served: 1.x lists its tool schemas as draft-07, x-mcp without `$schema`.
    expect(rows.map((row) => row.schema)).toEqual([
      '`http://json-schema.org/draft-07/schema#`',
      '`none`',
      '`http://json-schema.org/draft-07/schema#`',
      '`none`',
    ]);
  }, 300_000);
});
