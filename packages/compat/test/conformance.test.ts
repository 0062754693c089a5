// The fast part of the conformance proof (the whole suite: `pnpm --filter @x/compat conformance`): the
// official conformance suite against programs written for the official SDK 1.x, on the genuine SDK and
// aliased onto @x/compat, each side in its own process on a free 127.0.0.1 port. The fixture
// (test/fixtures/official-conformance-server.mjs, on Express and on the Web-standard transport) answers
// every scenario the 2025-11-25 revision requires; every one that passes on the genuine SDK must pass on
// @x/compat. server-everything:
// `tools-call-error` differed until compat answered failed tool calls with `isError` results as 1.x
// does. Needs @x/compat built.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareConformance } from '../scripts/lib/conformance-compare.mjs';

const compatDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = (name: string) => join(tmpdir(), `x-compat-conformance-test-${process.pid}`, name);
beforeAll(() => {
  if (!existsSync(join(compatDir, 'dist', 'experimental', 'tasks', 'index.js')))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

const passing = (outcomes: Map<string, boolean>) =>
  [...outcomes].filter(([, passed]) => passed).map(([scenario]) => scenario);

describe('conformance: the 1.x-API fixture on the genuine SDK vs on @x/compat', () => {
  const fixtures: Array<['fixture' | 'fixture-web', string]> = [
    ['fixture', 'Express and the Node transport'],
    ['fixture-web', 'the Web-standard transport'],
  ];
  it.each(fixtures)(
    '%s (%s), --requirements 2025-11-25: every scenario passing on the genuine SDK passes on @x/compat',
    async (server, _transport) => {
      const { sides, differing } = await compareConformance({
        server,
        args: ['--requirements', '2025-11-25'],
        outDir: outDir(server),
      });
      expect(sides.genuine.outcomes.size).toBe(33);
      expect(sides.compat.outcomes.size).toBe(33);
      // The fixture answers them: sessions, logging, progress, sampling, elicitation (SEP-1034, SEP-1330),
      // completion, subscriptions, SSE resumption (SEP-1699), the Host guard.
      const genuine = passing(sides.genuine.outcomes);
      expect(genuine).toEqual(
        expect.arrayContaining([
          'server-session-lifecycle',
          'logging-set-level',
          'completion-complete',
          'tools-call-with-logging',
          'tools-call-with-progress',
          'tools-call-sampling',
          'tools-call-elicitation',
          'elicitation-sep1034-defaults',
          'elicitation-sep1330-enums',
          'server-sse-polling',
          'resources-subscribe',
          'resources-templates-read',
          'prompts-get-with-args',
          'dns-rebinding-protection',
        ]),
      );
      expect(passing(sides.compat.outcomes)).toEqual(expect.arrayContaining(genuine));
      expect(differing).toEqual([]);
    },
    180_000,
  );
});

describe('conformance: server-everything on the genuine SDK vs on @x/compat', () => {
  it('tools-call-error: the same outcome', async () => {
    const { sides, differing } = await compareConformance({
      server: 'everything',
      args: ['--scenario', 'tools-call-error'],
      outDir: outDir('everything'),
    });
    expect(sides.genuine.outcomes.has('tools-call-error')).toBe(true);
    expect(sides.compat.outcomes.has('tools-call-error')).toBe(true);
    expect(differing).toEqual([]);
  }, 120_000);
});
