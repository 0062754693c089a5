import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBaseline } from '../scripts/lib/baseline.mjs';
import { evaluate } from '../scripts/lib/checks.mjs';

const check = (id: string, status: string) => ({ id, status });

function baselineFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'x-mcp-baseline-')), 'b.yml');
  writeFileSync(path, text);
  return path;
}

describe('readBaseline', () => {
  it('reads entries and ignores comments', () => {
    const path = baselineFile(
      '# head\nserver:\n  # why\n  - ping\n  - tools-list:wire-schema-valid # why\nclient: []\n',
    );
    expect(readBaseline(path)).toEqual({ server: ['ping', 'tools-list:wire-schema-valid'], client: [] });
  });

  it('refuses what it cannot read rather than guessing', () => {
    expect(() => readBaseline(baselineFile('server: [ping]\n'))).toThrow(/cannot read/);
  });
});

describe('evaluate', () => {
  const checks = new Map([
    ['ping', [check('ping', 'SUCCESS')]],
    ['tools-list', [check('tools-list', 'FAILURE'), check('wire-schema-valid', 'SUCCESS')]],
    ['sse-retry', [check('client-sse-last-event-id', 'WARNING')]],
  ]);

  it('passes when every failing scenario is listed', () => {
    const verdict = evaluate(checks, ['tools-list'], 'server');
    expect(verdict).toMatchObject({ passed: 2, failed: 0, baselined: 1, unexpected: [], stale: [] });
  });

  it('reports an unlisted failure', () => {
    const verdict = evaluate(checks, [], 'server');
    expect(verdict.failed).toBe(1);
    expect(verdict.unexpected.map((u) => u.scenario)).toEqual(['tools-list']);
  });

  it('reports listed scenarios and checks that pass, or never ran, as stale', () => {
    const verdict = evaluate(checks, ['tools-list', 'ping', 'ping:ping', 'gone'], 'server');
    expect(verdict.stale).toEqual(['ping (passes)', 'ping:ping (passes)', 'gone (did not run)']);
  });

  it('accepts a single listed check', () => {
    expect(evaluate(checks, ['tools-list:tools-list'], 'server').unexpected).toEqual([]);
  });

  it('keeps a single-check entry while any check with that id fails', () => {
    const repeated = new Map([['s', [check('probe', 'SUCCESS'), check('probe', 'FAILURE')]]]);
    expect(evaluate(repeated, ['s:probe'], 'server')).toMatchObject({ failed: 0, stale: [] });
  });

  it('fails client scenarios on warnings, as the CLI scores them', () => {
    expect(evaluate(checks, ['tools-list'], 'server').unexpected).toEqual([]);
    const verdict = evaluate(checks, ['tools-list'], 'client');
    expect(verdict.unexpected.map((u) => u.scenario)).toEqual(['sse-retry']);
  });
});
