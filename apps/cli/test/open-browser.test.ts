// The browser opener (issue #35, finding 2): only https: (and http: on loopback) is handed to the
// system's opener, always as one argument of a process started without a shell. Stand-in openers on
// PATH record the arguments they were given.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isOpenableUrl, openBrowser } from '../src/session/open-browser.js';

let bin = '';
let log = '';
beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'x-mcp-opener-'));
  log = join(bin, 'log');
  // Each run appends its name and arguments as one JSON line: what a shell would have split or
  // expanded shows up as more (or different) arguments.
  for (const name of ['xdg-open', 'open', 'rundll32']) {
    writeFileSync(
      join(bin, name),
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify([${JSON.stringify(name)}, ...process.argv.slice(2)]) + '\\n');\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

const env = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` });

async function runs(count: number): Promise<string[][]> {
  await vi.waitFor(
    () => expect(existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0).toBe(count),
    { timeout: 20_000, interval: 50 },
  );
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string[]);
}

// Shell metacharacters of sh and cmd.exe, in a valid https URL.
const TRICKY = new URL('https://as.example/authorize?a=1&b=2|calc&c=%PATH%&d=$(id)&e=`id`&f="x"^&g=\'y\'');

describe('openBrowser', () => {
  it.each([
    ['linux', 'xdg-open', []],
    ['darwin', 'open', []],
    ['win32', 'rundll32', ['url.dll,FileProtocolHandler']],
  ] as const)('on %s runs %s with the URL as one argument, no shell', async (platform, command, before) => {
    rmSync(log, { force: true });
    expect(openBrowser(TRICKY, { platform, env: env() })).toBe(true);
    expect(await runs(1)).toEqual([[command, ...before, TRICKY.href]]);
  });

  it.each([
    'file:///etc/passwd?x=1',
    'x-unknown-handler://run?cmd=calc',
    'javascript:alert(1)',
    'ms-msdt:/id PCWDiagnostic',
    'http://evil.example/authorize',
    'smb://attacker.example/share',
  ])('refuses %s: returns false and runs nothing', async (raw) => {
    rmSync(log, { force: true });
    const url = new URL(raw);
    expect(isOpenableUrl(url)).toBe(false);
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(openBrowser(url, { platform, env: env() })).toBe(false);
    // A URL that is opened afterwards is the only run logged.
    expect(openBrowser(new URL('http://127.0.0.1:9/cb'), { platform: 'linux', env: env() })).toBe(true);
    expect(await runs(1)).toEqual([['xdg-open', 'http://127.0.0.1:9/cb']]);
  });

  it('accepts https anywhere and http only on loopback hosts', () => {
    expect(isOpenableUrl(new URL('https://as.example/a'))).toBe(true);
    expect(isOpenableUrl(new URL('http://localhost:8080/a'))).toBe(true);
    expect(isOpenableUrl(new URL('http://127.0.0.1/a'))).toBe(true);
    expect(isOpenableUrl(new URL('http://[::1]/a'))).toBe(true);
    expect(isOpenableUrl(new URL('http://10.0.0.1/a'))).toBe(false);
  });
});
