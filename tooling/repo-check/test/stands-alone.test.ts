import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A clone of this repository with nothing beside it must pass `pnpm test` (issue #36): no test or
 * tool may read the spec data from a folder next to the checkout (`<repo>/../shared/spec`, as they
 * once did). The data they need is vendored in `tooling/spec`.
 */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.turbo', '.git', 'coverage']);
const CODE = /\.(?:[cm]?[jt]s|sh)$/;
const self = fileURLToPath(import.meta.url);

// `path.resolve(root, '..', 'shared', …)` and `'../shared/spec'`: both leave the checkout.
const OUTSIDE = [/['"]\.\.['"]\s*,\s*['"]shared['"]/, /\.\.\/shared\/spec/];

function* codeFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry)) continue;
    const file = join(dir, entry);
    if (statSync(file).isDirectory()) yield* codeFiles(file);
    else if (CODE.test(entry) && file !== self) yield file;
  }
}

describe('the repository stands alone', () => {
  it('no code reads the spec from beside the checkout', () => {
    const offenders = [...codeFiles(repoRoot)]
      .filter((file) => OUTSIDE.some((pattern) => pattern.test(readFileSync(file, 'utf8'))))
      .map((file) => relative(repoRoot, file));
    expect(offenders).toEqual([]);
  });

  it('vendors the spec with its source revision and licence', () => {
    const spec = join(repoRoot, 'tooling', 'spec');
    expect(readFileSync(join(spec, 'README.md'), 'utf8')).toMatch(/commit `[0-9a-f]{40}`/);
    expect(readFileSync(join(spec, 'LICENSE'), 'utf8')).toContain('Apache License');
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])
      expect(statSync(join(spec, version, 'schema.json')).size).toBeGreaterThan(10_000);
    expect(readdirSync(join(spec, '2026-07-28', 'examples')).length).toBeGreaterThan(50);
  });
});
