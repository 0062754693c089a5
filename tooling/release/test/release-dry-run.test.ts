// `pnpm release --dry-run` (issue 30, item 5): versions the pending changesets, checks the packs and runs
// `pnpm publish -r --dry-run` in a temporary copy; the repository is left as it was.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

/** Every non-private package under packages/ (new packages are covered without listing them). */
const published = readdirSync(join(ROOT, 'packages'))
  .map((folder) => join(ROOT, 'packages', folder, 'package.json'))
  .filter((file) => existsSync(file))
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; private?: boolean })
  .filter((manifest) => manifest.private !== true)
  .map((manifest) => manifest.name);

let output = '';
let copy = '';
let statusBefore = '';

beforeAll(async () => {
  statusBefore = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString();
  const { stdout, stderr } = await run(
    process.execPath,
    [join(ROOT, 'tooling/release/release.mjs'), '--dry-run', '--quick', '--keep'],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
  );
  output = `${stdout}${stderr}`;
  copy = /^\$ .*? in (\S+)$/m.exec(output)?.[1] ?? '';
}, 320_000);

afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

describe('pnpm release --dry-run', () => {
  it('would publish every published package, and only those', () => {
    for (const name of published) expect(output).toMatch(new RegExp(`^\\+ ${name}@\\d+\\.\\d+\\.\\d+$`, 'm'));
    expect(output).not.toMatch(/^\+ @x\/(cli|examples|build|test-kit|pack-check|release)@/m);
  });

  it('makes the first public release 0.1.0 of every package (until it is out; see RELEASING.md)', () => {
    const versions = /^release \(dry run\): (.*)$/m.exec(output)?.[1]?.split(' ') ?? [];
    expect(versions.sort()).toEqual(published.map((name) => `${name}@0.1.0`).sort());
  });

  it('writes a CHANGELOG.md per package from the pending changesets', () => {
    expect(copy).not.toBe('');
    for (const folder of readdirSync(join(copy, 'packages'))) {
      const manifest = join(copy, 'packages', folder, 'package.json');
      if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).private === true) continue;
      expect(readFileSync(join(copy, 'packages', folder, 'CHANGELOG.md'), 'utf8')).toContain('## 0.1.0');
    }
  });

  it('leaves the repository as it was', () => {
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString()).toBe(statusBefore);
  });
});
