// x-mcp and protected servers (MCP 2025-11-25 "Authorization"): `serve --auth-token` (a static bearer
// secret) and `serve --auth-issuer` (JWT access tokens from a real OpenID provider, oidc-provider,
// running in this process), `--token`, and `login` / `logout` with the user's consent driven over HTTP:
// the test reads the authorization URL x-mcp prints on stderr, submits oidc-provider's login and consent
// forms as a browser would, and follows the last redirect to x-mcp's loopback listener.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consentOverHttp } from '@x/test-kit';
import { startAuthorizationServer, type TestAuthorizationServer } from './fixtures/oidc.js';
import { assertBuilt, killAll, runCli, serve, startCli } from './helpers/cli-process.js';
import { HAS_SCRIPT, runInTerminal } from './helpers/in-terminal.js';

const SECRET = 'cli-test-secret-0123456789';
let configDir = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  assertBuilt();
  configDir = await mkdtemp(join(tmpdir(), 'x-mcp-auth-'));
  env = { X_MCP_CONFIG_DIR: configDir };
});
afterAll(async () => {
  await killAll();
  await rm(configDir, { recursive: true, force: true });
});

describe('serve --auth-token and --token', () => {
  let url = '';
  beforeAll(async () => {
    ({ url } = await serve('http', ['--auth-token', SECRET]));
  });

  it('answers 401 with a resource_metadata challenge and serves the Protected Resource Metadata', async () => {
    // RFC 9728 §5.1: the challenge names the metadata URL; §3.1: path-inserted well-known URL.
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(response.status).toBe(401);
    const metadataUrl = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: url, authorization_servers: [] });
  });

  it('tools --token <secret> lists the tools', async () => {
    const run = await runCli(['tools', '--token', SECRET, url], { env });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('test_simple_text');
    expect(run.code).toBe(0);
  });

  it('a wrong token is a connection failure (exit 3) whose message does not contain the token', async () => {
    const run = await runCli(['tools', '--token', 'not-the-secret-token', url], { env });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot connect to .*HTTP 401/);
    expect(run.stderr).not.toContain('not-the-secret-token');
    expect(run.stdout).toBe('');
  });

  it('without a token, the OAuth flow finds no authorization server: exit 3, clear message', async () => {
    const run = await runCli(['tools', url], { env });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/authorization failed \(invalid_metadata\).*authorization_servers/);
  });

  it('--json reports the auth failure with exit code 3', async () => {
    const run = await runCli(['tools', '--json', url], { env });
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { exitCode: 3 },
    });
  });

  it('usage errors: --token with -H Authorization, --token on stdio, a token with a space', async () => {
    const both = await runCli(['tools', '--token', SECRET, '-H', 'Authorization: Bearer x', url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --token or -H Authorization');
    const stdio = await runCli(['tools', '--token', SECRET, '--', 'node', 'server.js']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('applies to URL targets (so does --token)');
    const spaced = await runCli(['tools', '--token', 'a b', url]);
    expect(spaced.code).toBe(2);
  });
});

describe('serve --transport sse --auth-token', () => {
  it('protects the legacy SSE endpoint too; --token --transport sse connects', async () => {
    const { url } = await serve('sse', ['--auth-token', SECRET]);
    const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/sse`);
    expect(await metadata.json()).toMatchObject({ resource: url });
    const ok = await runCli(['tools', '--transport', 'sse', '--token', SECRET, url], { env });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const refused = await runCli(['tools', '--transport', 'sse', '--token', 'wrong-token', url], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).not.toContain('wrong-token');
  });
});

describe('serve --auth-* usage', () => {
  it('refuses --auth-token on ws and stdio, both modes at once, and --auth-audience alone', async () => {
    for (const args of [
      ['--transport', 'ws', '--auth-token', SECRET],
      ['--transport', 'stdio', '--auth-token', SECRET],
      ['--auth-token', SECRET, '--auth-issuer', 'https://as.example'],
      ['--auth-audience', 'x'],
      ['--auth-scope', 'mcp:tools'],
      ['--auth-issuer', 'https://as.example', '--auth-scope', 'a b'],
      ['--auth-issuer', 'not a url'],
    ]) {
      const run = await runCli(['serve', '--port', '0', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
    }
  });

  it('exits 3 when the issuer has no metadata to find its key set in', async () => {
    const run = await runCli(['serve', '--port', '0', '--auth-issuer', 'http://127.0.0.1:9/']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('cannot find the key set of --auth-issuer');
  });
});

describe('login, tools from the cached token, refresh, logout (oidc-provider in-process)', () => {
  let as: TestAuthorizationServer;
  let url = '';
  const tokenFile = (): string => join(configDir, 'tokens.json');
  const entries = async (): Promise<Record<string, { tokens?: { accessToken: string } }>> =>
    JSON.parse(await readFile(tokenFile(), 'utf8'));

  beforeAll(async () => {
    // 30 s tokens: within the provider's 60 s refresh skew, so each later run refreshes first.
    as = await startAuthorizationServer({ accessTokenTtlSec: 30 });
    ({ url } = await serve('http', ['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools']));
    as.resources.push(url);
  });
  afterAll(async () => {
    await killAll();
    await as?.[Symbol.asyncDispose]();
  });

  /** Runs `x-mcp login`, consents at oidc-provider over HTTP, lands on the loopback redirect. */
  async function login(): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const cli = startCli(['login', '--no-browser', url], { env });
    const stderr = await cli.waitFor('stderr', /open this URL in a browser:\n\s+(\S+)\n/);
    const authorizationUrl = new URL(/open this URL in a browser:\n\s+(\S+)\n/.exec(stderr)?.[1] ?? '');
    expect(authorizationUrl.origin).toBe(as.issuer);
    // RFC 8707: the resource indicator is the server; RFC 7636: S256 only.
    expect(authorizationUrl.searchParams.get('resource')).toBe(url);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '';
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const callback = await consentOverHttp(authorizationUrl, redirectUri);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    await page.text();
    const code = await cli.exited();
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  }

  it('without a token, a non-interactive run prints the URL and waits; login caches the token (0600)', async () => {
    const run = await login();
    expect(run.stdout, run.stderr).toMatch(
      /^Logged in to http:\/\/127\.0\.0\.1:\d+\/mcp, scope: .*mcp:tools/,
    );
    expect(run.code).toBe(0);
    const mode = (await stat(tokenFile())).mode & 0o777;
    expect(mode.toString(8)).toBe('600');
    const cached = (await entries())[url]?.tokens?.accessToken;
    expect(cached).toBeTypeOf('string');
    expect(run.stdout + run.stderr).not.toContain(cached as string);
  });

  it('tools <url> uses the cached token, refreshing it first when it is about to expire', async () => {
    const before = (await entries())[url]?.tokens?.accessToken;
    const run = await runCli(['tools', url], { env });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('test_simple_text');
    expect(run.code).toBe(0);
    const after = (await entries())[url]?.tokens?.accessToken;
    expect(after).toBeTypeOf('string');
    expect(after).not.toBe(before);
  });

  it('logout <url> removes that entry; a run then needs authorization again', async () => {
    const run = await runCli(['logout', url], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Logged out of ${url}\n`);
    expect(Object.hasOwn(await entries(), url)).toBe(false);
    expect(((await stat(tokenFile())).mode & 0o777).toString(8)).toBe('600');
  });

  it.skipIf(!HAS_SCRIPT || process.platform !== 'linux')(
    'on a terminal with a display, login opens the browser (xdg-open) at the authorization URL',
    async () => {
      // A stand-in xdg-open on PATH records the URL it was asked to open; the test then plays the browser.
      const bin = await mkdtemp(join(tmpdir(), 'x-mcp-browser-'));
      const opened = join(bin, 'opened');
      await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      await chmod(join(bin, 'xdg-open'), 0o755);
      try {
        const running = runInTerminal(['login', url], [], {
          env: { ...env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, DISPLAY: ':99' },
        });
        await vi.waitFor(() => expect(existsSync(opened)).toBe(true), { timeout: 20_000, interval: 50 });
        const authorizationUrl = new URL(await readFile(opened, 'utf8'));
        const callback = await consentOverHttp(
          authorizationUrl,
          authorizationUrl.searchParams.get('redirect_uri') ?? '',
        );
        await (await fetch(callback)).text();
        const { code, screen } = await running;
        expect(screen).toContain(authorizationUrl.href); // printed as well
        expect(screen).toContain(`Logged in to ${url}`);
        expect(code).toBe(0);
      } finally {
        await runCli(['logout', url], { env });
        await rm(bin, { recursive: true, force: true });
      }
    },
  );

  it('a command that stops waiting while the user is signing in says so (exit 3) and suggests login', async () => {
    // Long enough for discovery and registration to reach the consent URL on a loaded machine (300 ms
    // ran out before it at load average 37); the command then times out while the user 'reads' it.
    const cli = startCli(['ping', '--timeout', '5000', '--no-browser', url], { env });
    const stderr = await cli.waitFor('stderr', /open this URL in a browser:\n\s+(\S+)\n/);
    expect(stderr).toContain(`${as.issuer}/auth?`);
    expect(await cli.exited()).toBe(3);
    expect(cli.stderr()).toMatch(/timed out waiting for the authorization at .*; run 'x-mcp login .*' first/);
    expect((await entries())[url]?.tokens).toBeUndefined();
  });

  it('a user slower than the era probe (10 s) still gets the modern era: x-mcp connects again after signing in', async () => {
    const cli = startCli(['info', '--json', '--no-browser', url], { env });
    const stderr = await cli.waitFor('stderr', /open this URL in a browser:\n\s+(\S+)\n/);
    const authorizationUrl = new URL(/open this URL in a browser:\n\s+(\S+)\n/.exec(stderr)?.[1] ?? '');
    // The scenario is the passing of time: a person reading the consent page for longer than the
    // client's server/discover probe timeout (probeTimeout, 10 000 ms).
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const callback = await consentOverHttp(
      authorizationUrl,
      authorizationUrl.searchParams.get('redirect_uri') ?? '',
    );
    await (await fetch(callback)).text();
    expect(await cli.exited()).toBe(0);
    expect(JSON.parse(cli.stdout())).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    await runCli(['logout', url], { env });
  }, 60_000);

  it('a 401 during a command runs the flow too; then logout (no URL) removes the token file', async () => {
    const cli = startCli(['info', '--no-browser', url], { env });
    const stderr = await cli.waitFor('stderr', /open this URL in a browser:\n\s+(\S+)\n/);
    const authorizationUrl = new URL(/open this URL in a browser:\n\s+(\S+)\n/.exec(stderr)?.[1] ?? '');
    const callback = await consentOverHttp(
      authorizationUrl,
      authorizationUrl.searchParams.get('redirect_uri') ?? '',
    );
    await (await fetch(callback)).text();
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).toContain('x-mcp-everything-server');
    expect(existsSync(tokenFile())).toBe(true);
    const run = await runCli(['logout'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Logged out of every server');
    expect(existsSync(tokenFile())).toBe(false);
  });
});
