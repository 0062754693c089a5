// The fast part of the conformance proof (the whole suite: `pnpm --filter @x/compat conformance`):
// a few scenarios of the official conformance suite against server-everything on the genuine official
// SDK and aliased onto @x/compat, each in its own process on a free 127.0.0.1 port; the outcomes must be
// the same. `tools-call-error` and `tools-call-simple-text` differed until compat answered failed tool
// calls with `isError` results as 1.x does. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareConformance } from '../scripts/lib/conformance-compare.mjs';

const compatDir = join(dirname(fileURLToPath(import.meta.url)), '..');
beforeAll(() => {
  if (!existsSync(join(compatDir, 'dist', 'experimental', 'tasks', 'index.js')))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

describe('conformance scenarios: server-everything on the genuine SDK vs on @x/compat', () => {
  it.each(['tools-call-error', 'tools-call-simple-text'])(
    '%s: the same outcome',
    async (scenario) => {
      const { sides, differing } = await compareConformance({
        args: ['--scenario', scenario],
        outDir: join(tmpdir(), `x-compat-conformance-test-${process.pid}`, scenario),
      });
      expect(sides.genuine.outcomes.has(scenario)).toBe(true);
      expect(sides.compat.outcomes.has(scenario)).toBe(true);
      expect(differing).toEqual([]);
    },
    120_000,
  );
});
