import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkDefaultConstants,
  checkInlineDefaults,
  evaluateDefault,
  inlineDefaultsOf,
  // @ts-expect-error plain .mjs tooling script without type declarations
} from '../check-defaults.mjs';

const realPackages = join(import.meta.dirname, '..', '..', '..', 'packages');

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A packages/ folder holding `files` (paths relative to it, e.g. `ws/src/constants.ts`). */
function packagesWith(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'repo-check-defaults-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('no inline numeric default', () => {
  it('refuses `??`, `||`, destructuring and parameter defaults, naming the reason and the fix', () => {
    const violations = checkInlineDefaults(
      packagesWith({
        'ws/src/client.ts': [
          'const timeoutMs = options.timeoutMs ?? 10_000;',
          'const idleMs = options.idleMs ?? 30 * 60_000;',
          'const limit = options.limit || 500;',
          'const { maxBytes = 4096, name } = options;',
          'function connect(url: string, retries = 3) {}',
          'const errors = Math.max(1, options.maxErrors ?? 20);',
        ].join('\n'),
      }),
    ) as string[];
    expect(violations).toHaveLength(6);
    expect(violations[0]).toMatch(/^ws\/src\/client\.ts:1: inline default \(`\?\?` fallback\) `\?\? 10_000`/);
    expect(violations[1]).toMatch(/:2: .*`\?\? 30 \* 60_000`/);
    expect(violations[2]).toMatch(/:3: inline default \(`\|\|` fallback\) `\|\| 500`/);
    expect(violations[3]).toMatch(
      /:4: inline default \(destructuring or parameter default\) `maxBytes = 4096`/,
    );
    expect(violations[4]).toMatch(/:5: .*`retries = 3`/);
    expect(violations[5]).toMatch(/:6: .*`\?\? 20`/);
    for (const violation of violations) {
      expect(violation).toMatch(/cannot be found, documented or shared/);
      expect(violation).toMatch(/DEFAULT_<WHAT>_<UNIT>/);
      expect(violation).toMatch(/limit-defaults\.ts/);
      expect(violation).toMatch(/inline-default-ok: <reason>/);
    }
  });

  it('allows 0, 1 and -1, comments, strings, tests and a line that gives its reason', () => {
    expect(
      inlineDefaultsOf(
        [
          'const count = map.get(key)?.size ?? 0;',
          'const times = options.times ?? 1;',
          'const index = found ?? -1;',
          'function walk(value: unknown, depth = 0) {}',
          '/** @example `setTimeout(poll, task.pollInterval ?? 1_000)` */',
          '// const legacy = options.limit ?? 100;',
          "const text = 'x ?? 100';",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
          'const message = `at most ${limit} (default ?? 500)`;',
          'const port = options.port ?? 8080; // inline-default-ok: the well-known port, not a tunable limit',
        ].join('\n'),
      ),
    ).toEqual([]);
    // A template literal's `${…}` is code: a default inside it is still refused.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    expect(inlineDefaultsOf('const header = `max-age=${options.maxAgeSec ?? 3600}`;')).toEqual([
      { line: 1, kind: '`??` fallback', text: '?? 3600' },
    ]);
    // The comment needs a reason.
    expect(inlineDefaultsOf('const port = options.port ?? 8080; // inline-default-ok:')).toHaveLength(1);
    expect(
      checkInlineDefaults(
        packagesWith({ 'ws/test/client.test.ts': 'x ?? 10_000;', 'ws/src/a.test.ts': 'y ?? 5;' }),
      ),
    ).toEqual([]);
  });

  it('finds no inline default in the real packages', () => {
    expect(checkInlineDefaults(realPackages)).toEqual([]);
  });
});

describe('one value per DEFAULT_* name', () => {
  it('evaluates arithmetic, underscores, strings and references to other constants', () => {
    expect(evaluateDefault('8 * 1024 * 1024')).toBe(8_388_608);
    expect(evaluateDefault('30 * 60_000')).toBe(1_800_000);
    expect(evaluateDefault("'mcp:'")).toBe('mcp:');
    expect(evaluateDefault('2 * BASE', (name: string) => (name === 'BASE' ? 21 : undefined))).toBe(42);
    expect(evaluateDefault('{ perSecond: 10, burst: 50 } as const')).toBe('{perSecond:10,burst:50}');
  });

  it('refuses one name with two values in two packages, naming both places, the reason and the fix', () => {
    const violations = checkDefaultConstants(
      packagesWith({
        'stdio/src/line-writer.ts': 'export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;\n',
        'ws/src/constants.ts': [
          'export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;',
          'export const DEFAULT_KEEP_ALIVE_MS: number = DEFAULT_PING_MS;',
          'export const DEFAULT_PING_MS = 30_000;',
        ].join('\n'),
        'sse/src/server.ts': 'export const DEFAULT_KEEP_ALIVE_MS = 15_000;\n',
      }),
    ) as string[];
    expect(violations).toHaveLength(2);
    const buffered = violations.find((v) => v.startsWith('DEFAULT_MAX_BUFFERED_BYTES'));
    expect(buffered).toMatch(/has 2 values/);
    expect(buffered).toMatch(/8388608 in ws\/src\/constants\.ts:1/);
    expect(buffered).toMatch(/4194304 in stdio\/src\/line-writer\.ts:1/);
    expect(buffered).toMatch(/one name must mean one value/);
    expect(buffered).toMatch(/limit-defaults\.ts/);
    const keepAlive = violations.find((v) => v.startsWith('DEFAULT_KEEP_ALIVE_MS'));
    expect(keepAlive).toMatch(/30000 in ws\/src\/constants\.ts:2/);
    expect(keepAlive).toMatch(/15000 in sse\/src\/server\.ts:1/);
  });

  it('accepts equal values, re-exports and a deprecated alias', () => {
    expect(
      checkDefaultConstants(
        packagesWith({
          'protocol/src/limit-defaults.ts': 'export const DEFAULT_MAX_SESSIONS = 10_000;\n',
          'http/src/defaults.ts': 'export const DEFAULT_MAX_SESSIONS = 10 * 1000;\n',
          'ws/src/constants.ts': [
            "export { DEFAULT_MAX_SESSIONS } from '@x/protocol/transport';",
            '/**',
            ' * @deprecated Use `DEFAULT_MAX_CONNECTED_SESSIONS`.',
            ' */',
            'export const DEFAULT_MAX_SESSIONS: number = 1_000;',
          ].join('\n'),
        }),
      ),
    ).toEqual([]);
  });

  it('finds one value per name in the real packages', () => {
    expect(checkDefaultConstants(realPackages)).toEqual([]);
  });
});
