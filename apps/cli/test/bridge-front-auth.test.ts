// `x-mcp bridge --auth-token-file` / `--auth-issuer`: the bridge's own front protection (network →
// network, issue #38), on each front that can check a bearer token: Streamable HTTP, legacy SSE,
// WebSocket (the upgrade) and gRPC (the stream's metadata). The upstream is `x-mcp serve` over
// Streamable HTTP; clients are the built CLI and, for gRPC, the x-mcp client library.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@x/client';
import { consentOverHttp } from '@x/test-kit';
import { GrpcClientTransport, GrpcStatusError } from '@x/transport-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type TestAuthorizationServer } from './fixtures/oidc.js';
import { assertBuilt, killAll, runCli, serve, startCli } from './helpers/cli-process.js';

const SECRET = 'bridge-front-secret-0123456789';
/** What the example server's `test_simple_text` answers. */
const SIMPLE_TEXT = 'This is a simple text response for testing.';
let dir = '';
let secretFile = '';
let upstream = '';
/** gRPC status 16, what a refused stream ends with. */
const UNAUTHENTICATED = 16;
/** A config directory of the test's own: the bridge's http upstream and `login` keep tokens there. */
let env: Record<string, string> = {};

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-bridge-auth-'));
  secretFile = join(dir, 'secret');
  await writeFile(secretFile, `${SECRET}\n`, { mode: 0o600 });
  env = { X_MCP_CONFIG_DIR: join(dir, 'config') };
  ({ url: upstream } = await serve('http'));
}, 60_000);
afterAll(async () => {
  await killAll();
  await rm(dir, { recursive: true, force: true });
});

/** `x-mcp bridge --serve <front> --port 0 <extra> -- <upstream>`; resolves with its URL and stderr. */
async function bridge(
  front: 'http' | 'sse' | 'ws' | 'grpc',
  extra: readonly string[],
): Promise<{ url: string; stderr: () => string }> {
  const running = startCli(['bridge', '--serve', front, '--port', '0', ...extra, '--', upstream], { env });
  const stdout = await running.waitFor('stdout', /\n/);
  return { url: stdout.split('\n')[0] ?? '', stderr: running.stderr };
}

/** Lists the tools and calls one through the CLI; expects success. */
async function listAndCall(url: string, auth: readonly string[], transport: readonly string[] = []) {
  const tools = await runCli(['tools', ...transport, ...auth, url], { env });
  expect(tools.stderr).toBe('');
  expect(tools.stdout).toContain('test_simple_text');
  expect(tools.code).toBe(0);
  const call = await runCli(['call', 'test_simple_text', ...transport, ...auth, url], { env });
  expect(call.code, call.stderr).toBe(0);
  expect(call.stdout).toContain(SIMPLE_TEXT);
}

describe('bridge --auth-token-file, front by front', { timeout: 90_000 }, () => {
  it('--serve http: 401 with a challenge and metadata without the token; with it, tools and a call', async () => {
    const { url, stderr } = await bridge('http', ['--auth-token-file', secretFile]);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(response.status).toBe(401);
    await response.text();
    const metadataUrl = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      resource: url,
      resource_name: 'x-mcp bridge',
    });
    const wrong = await runCli(['tools', '--token', 'not-the-bridge-secret', url], { env });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/HTTP 401/);
    expect(wrong.stderr).not.toContain('not-the-bridge-secret');
    await listAndCall(url, ['--token-file', secretFile]);
    expect(stderr()).toMatch(/Protected: send "Authorization: Bearer/);
    expect(stderr()).not.toContain(SECRET);
  });

  it('--serve sse: the legacy endpoint refuses without the token, serves with it', async () => {
    const { url, stderr } = await bridge('sse', ['--auth-token-file', secretFile]);
    const refused = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    await refused.text();
    const wrong = await runCli(['tools', '--transport', 'sse', '--token', 'wrong-token', url], { env });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).not.toContain('wrong-token');
    await listAndCall(url, ['--token-file', secretFile], ['--transport', 'sse']);
    expect(stderr()).not.toContain(SECRET);
  });

  it('--serve ws: the upgrade is answered 401 without the token; with it, tools and a call', async () => {
    const { url, stderr } = await bridge('ws', ['--auth-token-file', secretFile]);
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const anonymous = await runCli(['tools', url], { env });
    expect(anonymous.code).toBe(3);
    expect(anonymous.stderr).toMatch(/401/);
    const wrong = await runCli(['tools', '--token', 'wrong-ws-token', url], { env });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).not.toContain('wrong-ws-token');
    await listAndCall(url, ['--token-file', secretFile]);
    expect(stderr()).not.toContain(SECRET);
  });

  it('--serve grpc: a stream without the token is UNAUTHENTICATED; with it, tools and a call', async () => {
    const { url, stderr } = await bridge('grpc', ['--auth-token-file', secretFile]);
    expect(url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    const anonymous = new Client({ name: 'no-token', version: '1.0.0' });
    const refused = await anonymous.connect(new GrpcClientTransport(url)).then(
      () => undefined,
      (error: unknown) => error,
    );
    await anonymous.close();
    expect(refused).toBeInstanceOf(GrpcStatusError);
    expect((refused as GrpcStatusError).status).toBe(UNAUTHENTICATED);
    const client = new Client({ name: 'with-token', version: '1.0.0' });
    await client.connect(new GrpcClientTransport(url, { headers: { authorization: `Bearer ${SECRET}` } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('test_simple_text');
      const call = await client.callTool({ name: 'test_simple_text', arguments: {} });
      expect(JSON.stringify(call.content)).toContain(SIMPLE_TEXT);
    } finally {
      await client.close();
    }
    await listAndCall(url, ['--token-file', secretFile]);
    expect(stderr()).not.toContain(SECRET);
  });
});

describe('bridge --auth-issuer (oidc-provider in-process)', { timeout: 120_000 }, () => {
  let as: TestAuthorizationServer;
  beforeAll(async () => {
    as = await startAuthorizationServer({});
  });
  afterAll(async () => {
    await killAll();
    await as?.[Symbol.asyncDispose]();
  });

  it('--serve http: login at the issuer through the bridge, then tools and a call with the JWT', async () => {
    const { url } = await bridge('http', ['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools']);
    as.resources.push(url);
    const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({
      resource: url,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:tools'],
    });
    const login = startCli(['login', '--no-browser', url], { env });
    const prompt = /open this URL in a browser:\n\s+(\S+)\n/;
    const authorizationUrl = new URL(prompt.exec(await login.waitFor('stderr', prompt))?.[1] ?? '');
    const redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '';
    const page = await fetch(await consentOverHttp(authorizationUrl, redirectUri));
    expect(page.status).toBe(200);
    await page.text();
    expect(await login.exited()).toBe(0);
    await listAndCall(url, []);
    const forged = await runCli(['tools', '--token', 'eyJhbGciOiJub25lIn0.e30.', url], { env });
    expect(forged.code).toBe(3);
  });

  it('--serve ws and grpc with --auth-audience: the same JWT opens them, a client without it is refused', async () => {
    // The token login cached names the http front as its audience (RFC 8707): the other fronts take it
    // when told that audience.
    const [http] = as.resources;
    const tokens = JSON.parse(await readFile(join(dir, 'config', 'tokens.json'), 'utf8')) as Record<
      string,
      { tokens?: { accessToken?: string } }
    >;
    const jwtFile = join(dir, 'jwt');
    await writeFile(jwtFile, tokens[http as string]?.tokens?.accessToken ?? '', { mode: 0o600 });
    for (const front of ['ws', 'grpc'] as const) {
      const { url } = await bridge(front, [
        '--auth-issuer',
        as.issuer,
        '--auth-audience',
        http as string,
        '--auth-scope',
        'mcp:tools',
      ]);
      const anonymous = await runCli(['tools', url], { env });
      expect(anonymous.code, front).toBe(3);
      await listAndCall(url, ['--token-file', jwtFile]);
    }
  });
});

describe('bridge --auth-* usage', () => {
  it('refuses auth on --serve stdio, both secrets at once, both modes, and --auth-scope alone', async () => {
    const cases: Array<[readonly string[], RegExp]> = [
      [
        ['--serve', 'stdio', '--auth-token-file', secretFile],
        /apply to --serve http, sse, ws and grpc, not stdio \(stdio has no front to protect/,
      ],
      [['--auth-token', SECRET, '--auth-token-file', secretFile], /either --auth-token or --auth-token-file/],
      [
        ['--auth-token-file', secretFile, '--auth-issuer', 'https://as.example'],
        /either --auth-token or --auth-issuer/,
      ],
      [['--auth-scope', 'mcp:tools'], /go with --auth-issuer/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['bridge', ...args, '--', 'node', 'server.js']);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain(SECRET);
    }
  });

  it('help bridge lists the --auth-* options and says stdio takes none', async () => {
    const help = await runCli(['help', 'bridge']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--auth-token-file <path>/);
    expect(help.stdout).toMatch(/--auth-issuer <url> +http, sse, ws, grpc \(not stdio\)/);
  });
});
