// `x-mcp bridge --serve stdio -- <url>` (the mcp-remote job) against a protected Streamable HTTP server
// (`x-mcp serve --auth-issuer`) and a real OpenID provider (oidc-provider) in this process. The desktop
// host is played by the x-mcp `Client` over `StdioClientTransport` (or by raw pipes, to see every byte
// on stdout); the browser by a stand-in `xdg-open` on PATH that records the URL, after which the test
// consents over HTTP as cli-auth.test.ts does. The provider counts authorization requests, so a
// sign-in loop shows as a number.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@x/client';
import { consentOverHttp } from '@x/test-kit';
import { StdioClientTransport } from '@x/transport-stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fakeBrowser,
  MACHINE_CLIENT,
  type RemoteAuthorizationServer,
  startRemoteAuthorizationServer,
} from './fixtures/bridge-remote.js';
import { assertBuilt, BIN, killAll, runCli, serve } from './helpers/cli-process.js';

const WAIT = { timeout: 60_000, interval: 50 };

let as: RemoteAuthorizationServer;
let url = '';
const dirs: string[] = [];

beforeAll(async () => {
  assertBuilt();
  as = await startRemoteAuthorizationServer();
  ({ url } = await serve('http', ['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools']));
  as.resources.push(url);
});
afterAll(async () => {
  await killAll();
  await as?.[Symbol.asyncDispose]();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function configDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'x-mcp-bridge-oauth-'));
  dirs.push(dir);
  return dir;
}

type Browser = Awaited<ReturnType<typeof fakeBrowser>>;

/** The x-mcp `Client` as a desktop host: spawns `x-mcp bridge --serve stdio -- <url>` and connects. */
function host(
  config: string,
  browser: Browser,
  extra: { args?: string[]; env?: Record<string, string>; target?: string } = {},
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'bridge', '--serve', 'stdio', ...(extra.args ?? []), '--', extra.target ?? url],
    env: { ...browser.env, X_MCP_CONFIG_DIR: config, NO_COLOR: '1', ...extra.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: 'desktop-host', version: '1.0.0' });
  const connected = client.connect(transport);
  connected.catch(() => undefined);
  return { client, transport, connected, stderr: () => stderr };
}

/** Plays the browser for the `index`-th URL the bridge opened: signs in, consents, lands on the loopback. */
async function consent(browser: Browser, index: number): Promise<URL> {
  await vi.waitFor(async () => expect((await browser.opened()).length).toBeGreaterThan(index), WAIT);
  const authorizationUrl = new URL((await browser.opened())[index] as string);
  const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '';
  const callback = await consentOverHttp(authorizationUrl, redirectUri);
  const page = await fetch(callback);
  expect(page.status).toBe(200);
  await page.text();
  return authorizationUrl;
}

type Entry = { tokens?: { accessToken: string; refreshToken?: string; expiresAt?: number } };
const tokenFile = (config: string): string => join(config, 'tokens.json');
async function entry(config: string): Promise<Entry> {
  return (JSON.parse(await readFile(tokenFile(config), 'utf8')) as Record<string, Entry>)[url] ?? {};
}
async function editTokens(
  config: string,
  change: (tokens: NonNullable<Entry['tokens']>) => void,
): Promise<void> {
  const entries = JSON.parse(await readFile(tokenFile(config), 'utf8')) as Record<string, Entry>;
  const tokens = entries[url]?.tokens;
  if (tokens === undefined) throw new Error('no cached tokens to edit');
  change(tokens);
  await writeFile(tokenFile(config), JSON.stringify(entries), { mode: 0o600 });
}

const TEXT = { name: 'test_simple_text', arguments: {} };

describe('bridge --serve stdio -- <protected url>', { timeout: 120_000 }, () => {
  let config = '';
  let browser: Browser;
  beforeAll(async () => {
    config = await configDir();
    browser = await fakeBrowser();
  });
  afterAll(async () => {
    await browser?.[Symbol.asyncDispose]();
  });

  it('first start: opens the browser (no terminal: a desktop host), signs in, then tools/call works', async () => {
    const before = as.authorizations();
    const bridge = host(config, browser);
    const authorizationUrl = await consent(browser, 0);
    expect(authorizationUrl.origin).toBe(as.issuer);
    expect(authorizationUrl.searchParams.get('resource')).toBe(url);
    await bridge.connected;
    try {
      const result = await bridge.client.callTool(TEXT);
      expect(JSON.stringify(result.content)).toContain('text');
      expect(as.authorizations() - before).toBe(1);
      expect(bridge.stderr()).toContain(`To authorize x-mcp for ${url}, open this URL in a browser:`);
      expect((await entry(config)).tokens?.refreshToken).toBeTypeOf('string');
    } finally {
      await bridge.client.close();
    }
  });

  it('a second start reuses the cached token: no browser, no authorization request', async () => {
    const before = as.authorizations();
    const bridge = host(config, browser);
    await bridge.connected;
    try {
      await bridge.client.callTool(TEXT);
      expect(as.authorizations()).toBe(before);
      expect(await browser.opened()).toHaveLength(1);
      expect(bridge.stderr()).not.toContain('open this URL');
    } finally {
      await bridge.client.close();
    }
  });

  it('an expired access token is refreshed with the refresh token, no browser', async () => {
    const before = { auth: as.authorizations(), refresh: as.grants('refresh_token') };
    const expired = (await entry(config)).tokens?.accessToken;
    await editTokens(config, (tokens) => {
      tokens.expiresAt = Math.floor(Date.now() / 1000) - 60;
    });
    const bridge = host(config, browser);
    await bridge.connected;
    try {
      await bridge.client.callTool(TEXT);
      expect(as.grants('refresh_token') - before.refresh).toBe(1);
      expect(as.authorizations()).toBe(before.auth);
      expect((await entry(config)).tokens?.accessToken).not.toBe(expired);
    } finally {
      await bridge.client.close();
    }
  });

  it('a refused refresh token costs exactly one new sign-in, then tools/call works', async () => {
    const before = as.authorizations();
    await editTokens(config, (tokens) => {
      tokens.expiresAt = Math.floor(Date.now() / 1000) - 60;
      tokens.refreshToken = 'revoked-refresh-token';
    });
    const bridge = host(config, browser);
    await consent(browser, 1);
    await bridge.connected;
    try {
      await bridge.client.callTool(TEXT);
      expect(as.authorizations() - before).toBe(1);
      expect(await browser.opened()).toHaveLength(2);
    } finally {
      await bridge.client.close();
    }
  });

  it('refused again after that sign-in: a typed error naming the server on each request, never a second browser', async () => {
    const bridge = host(config, browser);
    await bridge.connected;
    try {
      // From now on the server refuses every token the provider gives, and no refresh token comes.
      as.wrongAudience = true;
      as.noRefreshTokens = true;
      await editTokens(config, (tokens) => {
        tokens.accessToken = 'refused-access-token';
        delete tokens.refreshToken;
      });
      const before = as.authorizations();
      const first = bridge.client.callTool(TEXT);
      first.catch(() => undefined);
      await consent(browser, 2);
      await expect(first).rejects.toThrow();
      // A naive bridge signs in again here, and again on each request: a browser per call.
      for (let call = 0; call < 3; call++) {
        const error = await bridge.client.callTool(TEXT, { timeout: 30_000 }).then(
          () => undefined,
          (caught: unknown) => caught as Error,
        );
        expect(error?.message).toContain(`${url} still refuses x-mcp after a new sign-in`);
        expect(error?.message).toContain('maxLogins');
      }
      expect(as.authorizations() - before).toBe(1);
      expect(await browser.opened()).toHaveLength(3);
    } finally {
      as.wrongAudience = false;
      as.noRefreshTokens = false;
      await bridge.client.close();
    }
  });
});

describe('bridge --serve stdio: a registration the authorization server forgot', { timeout: 120_000 }, () => {
  it('invalid_client on refresh (the AS was upgraded or reset): the registration is dropped, x-mcp registers again once', async () => {
    const config = await configDir();
    await using browser = await fakeBrowser();
    const first = host(config, browser);
    await consent(browser, 0);
    await first.connected;
    await first.client.close();
    // What an upgraded AS that lost its registrations looks like from here: the stored client_id is
    // unknown to it, so the refresh is refused with invalid_client.
    const entries = JSON.parse(await readFile(tokenFile(config), 'utf8')) as Record<
      string,
      Entry & { client?: { clientId: string } }
    >;
    const stored = entries[url];
    if (stored?.client === undefined || stored.tokens === undefined) throw new Error('nothing cached');
    stored.client.clientId = 'forgotten-by-the-as';
    stored.tokens.expiresAt = Math.floor(Date.now() / 1000) - 60;
    await writeFile(tokenFile(config), JSON.stringify(entries), { mode: 0o600 });
    const before = as.authorizations();
    const bridge = host(config, browser);
    // Without dropping it, the browser would land on the AS's error page for an unknown client.
    const authorizationUrl = await consent(browser, 1);
    expect(authorizationUrl.searchParams.get('client_id')).not.toBe('forgotten-by-the-as');
    await bridge.connected;
    try {
      await bridge.client.callTool(TEXT);
      expect(as.authorizations() - before).toBe(1);
      const after = (JSON.parse(await readFile(tokenFile(config), 'utf8')) as typeof entries)[url];
      expect(after?.client?.clientId).toBe(authorizationUrl.searchParams.get('client_id'));
    } finally {
      await bridge.client.close();
    }
  });
});

describe('bridge --serve stdio: client credentials, parallel sign-ins, stdin EOF', {
  timeout: 120_000,
}, () => {
  it('--client-id with X_MCP_CLIENT_SECRET: the client_credentials grant, no browser, no token file', async () => {
    const config = await configDir();
    await using browser = await fakeBrowser();
    const before = { auth: as.authorizations(), grants: as.grants('client_credentials') };
    const bridge = host(config, browser, {
      args: ['--client-id', MACHINE_CLIENT.id],
      env: { X_MCP_CLIENT_SECRET: MACHINE_CLIENT.secret },
    });
    await bridge.connected;
    try {
      await bridge.client.callTool(TEXT);
      expect(as.grants('client_credentials') - before.grants).toBe(1);
      expect(as.authorizations()).toBe(before.auth);
      expect(await browser.opened()).toHaveLength(0);
      await expect(readFile(tokenFile(config))).rejects.toThrow(/ENOENT/);
    } finally {
      await bridge.client.close();
    }
  });

  it('--client-secret-file reads the secret; a wrong secret is an error naming the server, not a browser', async () => {
    const config = await configDir();
    await using browser = await fakeBrowser();
    const secretFile = join(config, 'secret');
    await writeFile(secretFile, `${MACHINE_CLIENT.secret}\n`, { mode: 0o600 });
    const ok = host(config, browser, {
      args: ['--client-id', MACHINE_CLIENT.id, '--client-secret-file', secretFile],
    });
    await ok.connected;
    await ok.client.callTool(TEXT);
    await ok.client.close();
    const wrong = host(config, browser, {
      args: ['--client-id', MACHINE_CLIENT.id],
      env: { X_MCP_CLIENT_SECRET: 'not-the-secret' },
    });
    await expect(wrong.connected).rejects.toThrow(url);
    expect(wrong.stderr()).not.toContain('not-the-secret');
    expect(await browser.opened()).toHaveLength(0);
  });

  it('two bridges signing in at once get different callback ports, and both work', async () => {
    // Two hosts (two config folders: neither finds the other's tokens) start their bridges together;
    // both wait at the consent page at the same time, each with its own loopback listener.
    const configs = [await configDir(), await configDir()];
    await using one = await fakeBrowser();
    await using two = await fakeBrowser();
    const before = as.authorizations();
    const bridges = [host(configs[0] as string, one), host(configs[1] as string, two)];
    await vi.waitFor(async () => {
      expect(await one.opened()).toHaveLength(1);
      expect(await two.opened()).toHaveLength(1);
    }, WAIT);
    const portOf = (opened: string): string =>
      new URL(new URL(opened).searchParams.get('redirect_uri') ?? '').port;
    expect(portOf((await one.opened())[0] as string)).not.toBe(portOf((await two.opened())[0] as string));
    await Promise.all([consent(one, 0), consent(two, 0)]);
    try {
      await Promise.all(bridges.map((bridge) => bridge.connected));
      await Promise.all(bridges.map((bridge) => bridge.client.callTool(TEXT)));
      expect(as.authorizations() - before).toBe(2);
    } finally {
      await Promise.all(bridges.map((bridge) => bridge.client.close()));
    }
  });

  it('stdout carries only JSON-RPC through a sign-in; stdin EOF ends the bridge (exit 0), leaving no process', async () => {
    const config = await configDir();
    await using browser = await fakeBrowser();
    const child: ChildProcess = spawn(process.execPath, [BIN, 'bridge', '--serve', 'stdio', '--', url], {
      env: { ...process.env, ...browser.env, X_MCP_CONFIG_DIR: config, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      child.stdin?.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw-host', version: '1' },
          },
        })}\n`,
      );
      await consent(browser, 0);
      await vi.waitFor(() => expect(stdout).toMatch(/\n/), WAIT);
      child.stdin?.end();
      expect(await exited).toEqual({ code: 0, signal: null });
      const lines = stdout.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      expect(JSON.parse(lines[0] as string)).toMatchObject({
        id: 1,
        result: { protocolVersion: '2025-06-18' },
      });
      expect(stderr).toContain('open this URL in a browser');
      // The bridge held no child process for a URL upstream; its own pid is gone.
      expect(() => process.kill(child.pid as number, 0)).toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('bridge --serve stdio -- <legacy HTTP+SSE url>', { timeout: 120_000 }, () => {
  it('a protected 2024-11-05 server: Streamable HTTP is refused (4xx), the bridge moves to SSE, signs in, tools/call works', async () => {
    const { url: sseUrl } = await serve('sse', ['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools']);
    as.resources.push(sseUrl);
    const config = await configDir();
    await using browser = await fakeBrowser();
    const bridge = host(config, browser, { target: sseUrl });
    const authorizationUrl = await consent(browser, 0);
    expect(authorizationUrl.searchParams.get('resource')).toBe(sseUrl);
    await bridge.connected;
    try {
      const result = await bridge.client.callTool(TEXT);
      expect(JSON.stringify(result.content)).toContain('text');
      expect(bridge.stderr()).toMatch(/refused Streamable HTTP \(.*\); using legacy HTTP\+SSE/);
    } finally {
      await bridge.client.close();
    }
  });
});

describe('bridge OAuth usage errors', { timeout: 60_000 }, () => {
  it('help bridge lists the OAuth options of a remote upstream', async () => {
    const help = await runCli(['help', 'bridge']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /--client-id <id> +a remote upstream: sign in as this pre-registered OAuth client/,
    );
    expect(help.stdout).toMatch(/--client-secret-file <path>/);
    expect(help.stdout).toMatch(/--no-browser/);
  });

  it('refuses --client-id on a stdio upstream, a secret file alone, a client ID with a space, and no secret', async () => {
    const stdio = await runCli(['bridge', '--serve', 'stdio', '--client-id', 'a', '--', 'node', 'server.js']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('--client-id and --no-browser apply to an http(s) upstream');
    const alone = await runCli(['bridge', '--serve', 'stdio', '--client-secret-file', '/nope', '--', url]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--client-secret-file goes with --client-id');
    const spaced = await runCli(['bridge', '--serve', 'stdio', '--client-id', 'a b', '--', url]);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain('--client-id expects a client ID of printable ASCII');
    const missing = await runCli(['bridge', '--serve', 'stdio', '--client-id', 'a', '--', url], {
      env: { X_MCP_CLIENT_SECRET: '' },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "--client-id needs the client's secret: --client-secret-file <path> or X_MCP_CLIENT_SECRET",
    );
    expect(missing.stdout).toBe('');
  });
});
