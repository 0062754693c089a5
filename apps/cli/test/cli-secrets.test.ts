// Secrets on x-mcp's command line, and an unprotected server off loopback (issue #35, findings 2 and 11):
// a mistyped -H or -e is reported without its text; a header value with a line break is a usage error
// before anything is sent; the token can come from a file or X_MCP_TOKEN instead of the process list;
// `serve` warns when it binds a non-loopback address without --auth-*; and an authorization server that
// names a file: (or other non-web) authorization endpoint never gets it to the browser opener.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, killAll, runCli, serve, startCli } from './helpers/cli-process.js';
import { HAS_SCRIPT, runInTerminal } from './helpers/in-terminal.js';

const SECRET = 'cli-secret-token-0123456789';
let dir = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'x-mcp-secrets-'));
  env = { X_MCP_CONFIG_DIR: join(dir, 'config') };
});
afterAll(async () => {
  await killAll();
  await rm(dir, { recursive: true, force: true });
});

describe('-H and -e errors never echo a value', () => {
  it('a -H without a colon is a usage error that does not print its text', async () => {
    const run = await runCli(['tools', '-H', `Authorization Bearer ${SECRET}`, 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("-H expects 'Name: value'");
    expect(run.stderr).not.toContain(SECRET);
  });

  it.each([
    ['CR LF', `Bearer ${SECRET}\r\nX-Injected: 1`],
    ['LF', `Bearer ${SECRET}\nX-Injected: 1`],
    ['CR', `Bearer ${SECRET}\rX-Injected: 1`],
    ['ESC', `Bearer ${SECRET}\u001b[2JX-Injected`],
  ])('a -H value with %s is a usage error naming only the header', async (_name, value) => {
    const run = await runCli(['tools', '-H', `Authorization: ${value}`, 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '-H Authorization: the value holds a line break or another control character',
    );
    expect(run.stderr).not.toContain(SECRET);
    expect(run.stderr).not.toContain('X-Injected');
  });

  it('a -e without = does not print its text', async () => {
    const run = await runCli(['tools', '-e', SECRET, '--', 'node', 'server.js']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-e expects KEY=VALUE');
    expect(run.stderr).not.toContain(SECRET);
  });
});

describe('the token from a file or X_MCP_TOKEN', () => {
  let url = '';
  beforeAll(async () => {
    ({ url } = await serve('http', ['--auth-token', SECRET]));
  });

  it('--token-file reads the token (a final newline is fine)', async () => {
    const file = join(dir, 'token');
    await writeFile(file, `${SECRET}\n`, { mode: 0o600 });
    const run = await runCli(['tools', '--token-file', file, url], { env });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('test_simple_text');
    expect(run.code).toBe(0);
  });

  it('--token-file errors: missing, not a token (not echoed), too large, with --token', async () => {
    const missing = await runCli(['tools', '--token-file', join(dir, 'nope'), url], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --token-file');
    const bad = join(dir, 'bad-token');
    await writeFile(bad, `${SECRET} with spaces`);
    const notToken = await runCli(['tools', '--token-file', bad, url], { env });
    expect(notToken.code).toBe(2);
    expect(notToken.stderr).toContain('--token-file expects a bearer token');
    expect(notToken.stderr).not.toContain(SECRET);
    const huge = await runCli(['tools', '--token-file', '/dev/zero', url], { env });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('is larger than 16384 bytes');
    const both = await runCli(['tools', '--token', SECRET, '--token-file', bad, url], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --token or --token-file');
  });

  it('X_MCP_TOKEN is sent to a URL target; a wrong one is exit 3 and not printed', async () => {
    const ok = await runCli(['tools', url], { env: { ...env, X_MCP_TOKEN: SECRET } });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('test_simple_text');
    expect(ok.code).toBe(0);
    const wrong = await runCli(['tools', url], { env: { ...env, X_MCP_TOKEN: 'wrong-token-abcdef' } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('HTTP 401');
    expect(wrong.stderr).not.toContain('wrong-token-abcdef');
    const malformed = await runCli(['tools', url], { env: { ...env, X_MCP_TOKEN: `${SECRET} x` } });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('X_MCP_TOKEN holds no bearer token');
    expect(malformed.stderr).not.toContain(SECRET);
  });

  it('--token wins over X_MCP_TOKEN, and a stdio server never gets it', async () => {
    const explicit = await runCli(['tools', '--token', SECRET, url], {
      env: { ...env, X_MCP_TOKEN: 'wrong-token-abcdef' },
    });
    expect(explicit.code).toBe(0);
    const stdio = await runCli(['tools', '--', process.execPath, BIN, 'serve', '--transport', 'stdio'], {
      env: { ...env, X_MCP_TOKEN: SECRET },
    });
    expect(stdio.stderr).toBe('');
    expect(stdio.stdout).toContain('test_simple_text');
    expect(stdio.code).toBe(0);
  });
});

describe('serve --auth-token-file', () => {
  it('protects the server with the secret read from a file; errors never show it', async () => {
    const file = join(dir, 'serve-secret');
    await writeFile(file, `${SECRET}\n`, { mode: 0o600 });
    const { url } = await serve('http', ['--auth-token-file', file]);
    const refused = await runCli(['tools', url], { env: { ...env, X_MCP_TOKEN: 'not-the-secret' } });
    expect(refused.code).toBe(3);
    const ok = await runCli(['tools', '--token', SECRET, url], { env });
    expect(ok.stdout).toContain('test_simple_text');
    expect(ok.code).toBe(0);
    const both = await runCli(['serve', '--port', '0', '--auth-token', SECRET, '--auth-token-file', file]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --auth-token or --auth-token-file');
    const bad = join(dir, 'bad-serve-secret');
    await writeFile(bad, `${SECRET} and more`);
    const notToken = await runCli(['serve', '--port', '0', '--auth-token-file', bad]);
    expect(notToken.code).toBe(2);
    expect(notToken.stderr).toContain('--auth-token-file expects a bearer token');
    expect(notToken.stderr).not.toContain(SECRET);
  });
});

describe("serve --auth-issuer and the issuer's metadata", () => {
  it('reads it with a cap and takes only a web jwks_uri (exit 3 otherwise)', async () => {
    const progress = { written: 0, finished: false };
    let closed: () => void = () => {};
    const hungUp = new Promise<void>((resolve) => (closed = resolve));
    const issuer = createServer((req, res) => {
      if (req.url === '/.well-known/oauth-authorization-server') {
        // 64 MB, written with backpressure: what was written is what the CLI read plus socket buffers.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.on('close', () => {
          progress.finished = res.writableFinished;
          closed();
        });
        const pump = (): void => {
          while (progress.written < 64 * 1024 * 1024 && !res.destroyed) {
            progress.written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      } else res.writeHead(404).end();
    });
    // The second issuer serves OpenID Connect discovery only, naming a key set on the local file system.
    const fileIssuer = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration')
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            issuer: `http://127.0.0.1:${(fileIssuer.address() as AddressInfo).port}`,
            jwks_uri: 'file:///etc/passwd',
          }),
        );
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => fileIssuer.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
      const run = await runCli(['serve', '--port', '0', '--auth-issuer', origin]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('is larger than 262144 bytes (maxResponseBytes)');
      await hungUp;
      expect(progress.finished).toBe(false);
      expect(progress.written).toBeLessThan(16 * 1024 * 1024);
      const fileOrigin = `http://127.0.0.1:${(fileIssuer.address() as AddressInfo).port}`;
      const fileRun = await runCli(['serve', '--port', '0', '--auth-issuer', fileOrigin]);
      expect(fileRun.code).toBe(3);
      expect(fileRun.stderr).toContain('file:');
      expect(fileRun.stderr).toContain('only https:, or http: on a loopback host, is allowed');
    } finally {
      issuer.closeAllConnections();
      await new Promise<void>((resolve) => issuer.close(() => resolve()));
      await new Promise<void>((resolve) => fileIssuer.close(() => resolve()));
    }
  });
});

describe('serve off loopback without --auth-*', () => {
  it('warns on stderr for 0.0.0.0 (http and ws), not with --auth-token, not on 127.0.0.1', async () => {
    const cases: [string[], boolean][] = [
      [['--host', '0.0.0.0'], true],
      [['--transport', 'ws', '--host', '0.0.0.0'], true],
      [['--host', '0.0.0.0', '--auth-token', SECRET], false],
      [['--host', '127.0.0.1'], false],
      [[], false],
    ];
    for (const [args, warns] of cases) {
      const server = startCli(['serve', '--port', '0', ...args]);
      await server.waitFor('stderr', /Serving the everything server[^\n]*\n/);
      if (warns) await server.waitFor('stderr', /warning: 0\.0\.0\.0 is reachable from other machines/);
      else {
        // The warning is written with the start-up lines, before the server handles a request: once a
        // ping came back, it would be there.
        const url = server.stdout().split('\n')[0] ?? '';
        const local = url.replace('0.0.0.0', '127.0.0.1');
        await runCli(local.startsWith('ws') ? ['ping', local] : ['ping', '--token', SECRET, local], { env });
        expect(server.stderr(), args.join(' ')).not.toContain('warning:');
      }
      server.child.kill('SIGINT');
      await server.exited();
    }
  }, 60_000);
});

describe('an authorization_endpoint that is not a web URL', () => {
  let mcp: Server;
  beforeAll(async () => {
    let origin = '';
    mcp = createServer((req, res) => {
      const path = new URL(req.url ?? '/', origin).pathname;
      const send = (body: unknown, status = 200) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/mcp')
        res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end();
      else if (path === '/.well-known/oauth-protected-resource/mcp')
        send({ resource: `${origin}/mcp`, authorization_servers: [origin] });
      else if (path === '/.well-known/oauth-authorization-server')
        send({
          issuer: origin,
          authorization_endpoint: 'file:///etc/passwd?',
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          code_challenge_methods_supported: ['S256'],
        });
      else if (path === '/register') send({ client_id: 'c' }, 201);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => mcp.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    mcp.closeAllConnections();
    await new Promise<void>((resolve) => mcp.close(() => resolve()));
  });

  it.skipIf(!HAS_SCRIPT)(
    'is refused (exit 3) and never reaches the browser opener',
    async () => {
      const bin = await mkdtemp(join(tmpdir(), 'x-mcp-browser-'));
      const opened = join(bin, 'opened');
      await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      await chmod(join(bin, 'xdg-open'), 0o755);
      try {
        const url = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
        const { code, screen } = await runInTerminal(['ping', '--timeout', '20000', url], [], {
          env: { ...env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, DISPLAY: ':99' },
        });
        expect(existsSync(opened)).toBe(false);
        expect(screen).toContain('authorization_endpoint');
        expect(screen).not.toContain('file:///etc/passwd');
        expect(code).toBe(3);
      } finally {
        await rm(bin, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
