import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CALLS = join(APP_DIR, 'dist', 'calls.js');

async function countCalls(
  sdk: string,
  ...flags: string[]
): Promise<{ lines: string[]; total: number; own: number }> {
  const { stdout } = await run(process.execPath, [CALLS, 'in-memory', sdk, ...flags], { cwd: APP_DIR });
  const lines = stdout.trim().split('\n');
  const summary = /calls\/request ([\d.]+) own ([\d.]+) node ([\d.]+)$/.exec(lines.at(-1) ?? '');
  expect(summary, stdout).not.toBeNull();
  return { lines, total: Number(summary![1]), own: Number(summary![2]) };
}

describe('calls per request (dist/calls.js)', () => {
  it('counts the calls of each side per tools/call, and names x-mcp functions only for x-mcp', async () => {
    expect(existsSync(CALLS), 'apps/bench is not built: run `pnpm build`').toBe(true);
    const raw = await countCalls('raw');
    const xmcp = await countCalls('x-mcp', '--list');
    // raw's own reference client and server make calls too, none of them in x-mcp's packages.
    expect(raw.total).toBeGreaterThan(5);
    expect(raw.own).toBe(0);
    expect(xmcp.own).toBeGreaterThan(10);
    expect(xmcp.lines.some((line) => / packages\/protocol\//.test(line))).toBe(true);
  }, 60_000);
});
