import { readFileSync } from 'node:fs';
import * as core from '../../../packages/protocol/src/core.js';
import * as http from '../../../packages/protocol/src/http/index.js';
import * as kit from '../../../packages/protocol/src/transport-kit.js';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs tooling script without type declarations
import {
  collectOptions,
  DOC_PATH,
  formatConstant,
  generateBlocks,
  isLimit,
  render,
} from '../transport-docs.mjs';

type Option = {
  name: string;
  required: boolean;
  deprecated: boolean;
  default: string;
  defaultValue: unknown;
};
type Collected = { server: Map<string, Option[]>; client: Map<string, Option[]> };

// One TypeScript program over every transport's sources: built once for the file.
let collected: Collected;
let blocks: Map<string, string>;
beforeAll(() => {
  collected = collectOptions();
  blocks = generateBlocks(collected);
}, 180_000);

describe('docs/transports.md (issue #36: the options tables are generated)', () => {
  it('is current: `pnpm docs:gen` writes exactly the committed file', () => {
    const committed = readFileSync(DOC_PATH, 'utf8');
    expect(render(committed, blocks), 'docs/transports.md is stale: run `pnpm docs:gen`').toBe(committed);
  });

  it('refuses a document whose generated blocks do not match what the generator makes', () => {
    expect(() => render('<!-- generated:nonsense -->\nx\n<!-- /generated:nonsense -->\n', blocks)).toThrow(
      /block "nonsense"/,
    );
    expect(() => render('no blocks at all\n', blocks)).toThrow(/lacks the blocks/);
  });

  it('every limit of every transport states its default (a @default tag naming a constant or a value)', () => {
    const missing: string[] = [];
    for (const side of ['server', 'client'] as const) {
      for (const [label, options] of collected[side]) {
        for (const option of options) {
          if (isLimit(option.name) && !option.required && !option.deprecated && option.default === 'none') {
            missing.push(`${side} ${label}: ${option.name}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('one limit, one default: an option shared by transports has the same value on each, or a constant named for the difference', () => {
    // maxMessageBytes: 4 MiB on the network transports, stdio's own DEFAULT_MAX_LINE_BYTES (its peer is local).
    const byName = new Map<string, Map<string, string>>();
    for (const side of ['server', 'client'] as const) {
      for (const [label, options] of collected[side]) {
        for (const option of options) {
          if (!isLimit(option.name) || option.deprecated || option.default === 'none') continue;
          const constant = /`(DEFAULT_[A-Z0-9_]+)`/.exec(option.default)?.[1];
          if (!constant) continue;
          const values = byName.get(constant) ?? new Map<string, string>();
          values.set(`${side} ${label}.${option.name}`, option.default);
          byName.set(constant, values);
        }
      }
    }
    for (const [constant, values] of byName) {
      expect(new Set(values.values()).size, `${constant} shows one value everywhere`).toBe(1);
    }
    const stdio = collected.server.get('stdio')?.find((option) => option.name === 'maxMessageBytes');
    const http = collected.server.get('Streamable HTTP')?.find((option) => option.name === 'maxMessageBytes');
    expect(stdio?.default).toContain('DEFAULT_MAX_LINE_BYTES');
    expect(http?.default).toContain('DEFAULT_MAX_MESSAGE_BYTES');
  });
});

describe('the values shown are the values the code runs with', () => {
  it('each constant of @x/protocol a table names shows its runtime value', () => {
    const runtime: Record<string, unknown> = { ...core, ...http, ...kit };
    let compared = 0;
    for (const side of ['server', 'client'] as const) {
      for (const [label, options] of collected[side]) {
        for (const option of options) {
          const constant = /`([A-Z][A-Z0-9_]+)`\)/.exec(option.default)?.[1];
          if (!constant || !(constant in runtime)) continue;
          expect(option.default, `${side} ${label}.${option.name}`).toBe(
            `${formatConstant(constant, runtime[constant])} (\`${constant}\`)`,
          );
          compared++;
        }
      }
    }
    // Most limits come from the shared constants: the check is not vacuous.
    expect(compared).toBeGreaterThan(40);
  });
});

describe('formatConstant', () => {
  it('shows a value in the unit its name carries', () => {
    expect(formatConstant('DEFAULT_MAX_MESSAGE_BYTES', 4 * 1024 * 1024)).toBe('4 MiB');
    expect(formatConstant('DEFAULT_STDERR_TAIL_BYTES', 4 * 1024)).toBe('4 KiB');
    expect(formatConstant('DEFAULT_X_BYTES', 1000)).toBe('1000 bytes');
    expect(formatConstant('DEFAULT_SESSION_IDLE_TIMEOUT_MS', 30 * 60_000)).toBe('30 min');
    expect(formatConstant('DEFAULT_X_MS', 2_500)).toBe('2500 ms');
    expect(formatConstant('DEFAULT_X_MS', 0)).toBe('0 (off)');
    expect(formatConstant('DEFAULT_CORS_MAX_AGE_SECONDS', 600)).toBe('10 min');
    expect(formatConstant('DEFAULT_MAX_SESSIONS', 10_000)).toBe('10 000');
    expect(formatConstant('DEFAULT_MAX_BATCH_SIZE', 1_000)).toBe('1000');
    expect(formatConstant('DEFAULT_RATE_LIMIT', { perSecond: 10, burst: 50, maxKeys: 10_000 })).toBe(
      'perSecond 10, burst 50, maxKeys 10 000',
    );
  });
});
