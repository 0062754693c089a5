// The CLI's first-use paper cuts (issue 30, item 6): each behaviour a new user meets, run through the
// built CLI as a person would.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, serve } from './helpers/cli-process.js';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('./fixtures/paper-cuts-server.mjs', import.meta.url));
const STDIO = ['--', process.execPath, FIXTURE];
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

beforeAll(assertBuilt);
afterEach(killAll);

async function listenOn(server: Server | HttpsServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Closes a server and destroys its open sockets, so close() does not wait on them. */
function close(server: Server | HttpsServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets.get(server) ?? []) socket.destroy();
  });
}

const sockets = new WeakMap<Server | HttpsServer, Set<Socket>>();
/** Remembers every TCP connection of `server` (for close). */
function tracked<T extends Server | HttpsServer>(server: T): T {
  const open = new Set<Socket>();
  sockets.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return server;
}

describe('a stdio server that dies', () => {
  it('while connecting: its exit code and last stderr lines, exit 3', async () => {
    const result = await runCli([
      'tools',
      '--',
      process.execPath,
      '-e',
      "console.error('cannot open config.toml'); process.exit(4)",
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /x-mcp: error: cannot connect to .*: the server process exited with code 4; its last stderr lines:\n {2}cannot open config\.toml\n/,
    );
  });

  it('killed by a signal: the signal', async () => {
    const result = await runCli([
      'tools',
      '--json',
      '--',
      process.execPath,
      '-e',
      "process.kill(process.pid, 'SIGKILL')",
    ]);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: { message: expect.stringMatching(/the server process was killed by SIGKILL/), exitCode: 3 },
    });
  });

  it('during a call: the exit code and last stderr lines, not just "connection closed"', async () => {
    const result = await runCli(['call', 'die', ...STDIO]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /x-mcp: error: the server process exited with code 5; its last stderr lines:\n {2}fatal: the disk is on fire\n/,
    );
  });
});

describe('--timeout without a terminal', () => {
  it('restarts on each progress notification: a 2 s call that reports every 250 ms outlives --timeout 1000', async () => {
    const result = await runCli(['call', 'slow', 'steps=8', 'intervalMs=250', '--timeout', '1000', ...STDIO]);
    expect(result).toMatchObject({ code: 0, stdout: 'done after 8 steps\n' });
  });

  it('still ends a call that reports nothing (exit 1)', async () => {
    const result = await runCli(['call', 'slow', 'progress=false', '--timeout', '1000', ...STDIO]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/timed out after 1000 ms/);
  });
});

describe('tool arguments are checked before the call is sent (exit 2)', () => {
  const cases: Array<{ args: string[]; message: RegExp }> = [
    { args: ['size=1'], message: /missing required argument color of tool pick/ },
    { args: [], message: /missing required arguments color, size of tool pick/ },
    { args: ['color=blue', 'size=1'], message: /argument color must be one of: red, green \(got blue\)/ },
    { args: ['color=red', 'size=1', 'tags=a,c'], message: /argument tags takes items from: a, b \(got c\)/ },
  ];
  for (const { args, message } of cases) {
    it(`pick ${args.join(' ')}`, async () => {
      const result = await runCli(['call', 'pick', ...args, ...STDIO]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/pick called/); // the server never saw it
    });
  }

  it('valid arguments go through', async () => {
    const result = await runCli(['call', 'pick', 'color=green', 'size=2', 'tags=a,b', ...STDIO]);
    expect(result).toMatchObject({ code: 0, stdout: 'picked green 2\n' });
  });
});

describe('prompt arguments are checked before the prompt is asked for (exit 2)', () => {
  const EVERYTHING = [
    '--',
    process.execPath,
    fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
    'serve',
    '--transport',
    'stdio',
  ];

  it('a missing required argument', async () => {
    const result = await runCli(['prompt', 'test_prompt_with_arguments', 'arg1=a', ...EVERYTHING]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing required argument arg2 of prompt test_prompt_with_arguments/);
  });

  it('all given: the prompt', async () => {
    const result = await runCli(['prompt', 'test_prompt_with_arguments', 'arg1=a', 'arg2=b', ...EVERYTHING]);
    expect(result.code).toBe(0);
  });
});

describe('TLS failures are explained (exit 3)', () => {
  let dir = '';
  let https: HttpsServer | undefined;
  let plain: Server | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'x-mcp-tls-'));
    // A throwaway self-signed certificate (openssl is part of every CI image we use; none is committed).
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ]);
    https = tracked(
      createHttpsServer({
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
      }),
    );
    plain = tracked(createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')));
  });

  afterAll(async () => {
    if (https?.listening) await close(https);
    if (plain?.listening) await close(plain);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a self-signed certificate: says so and how to trust it', async () => {
    const port = await listenOn(https!);
    const result = await runCli(['tools', `https://127.0.0.1:${port}/mcp`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /cannot connect to https:\/\/127\.0\.0\.1:\d+\/mcp: TLS: the server's certificate is self-signed; to trust it, set NODE_EXTRA_CA_CERTS .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
  });

  it('https:// to a plain-HTTP port: says the server does not speak TLS', async () => {
    const port = await listenOn(plain!);
    const result = await runCli(['tools', `https://127.0.0.1:${port}/mcp`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /TLS handshake failed: the server does not speak TLS on this port \(try http:\/\/\)/,
    );
  });
});

describe('serve', () => {
  it('a port in use: says so and what to do, exit 3', async () => {
    const taken = createServer();
    const port = await listenOn(taken);
    try {
      const result = await runCli(['serve', '--port', String(port)]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `x-mcp: error: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); pick another with --port, or --port 0 for any free one`,
      );
    } finally {
      await close(taken);
    }
  });
});

describe('--transport http against a legacy HTTP+SSE endpoint', () => {
  it('says it is an SSE endpoint and what to use instead, exit 3', async () => {
    const { url } = await serve('sse');
    const result = await runCli(['info', '--transport', 'http', url]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `x-mcp: error: ${url} is a legacy HTTP+SSE endpoint (protocol 2024-11-05), not Streamable HTTP: use --transport sse, or leave --transport out to fall back automatically`,
    );
  });

  it('a Streamable HTTP refusal that is no SSE endpoint keeps its HTTP status', async () => {
    const { url } = await serve('http');
    const result = await runCli(['info', '--transport', 'http', url.replace(/\/mcp$/, '/nope')]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/HTTP 404/);
  });
});

describe('help texts', () => {
  it('the main help lists every option the client commands take, and the exit codes of this page', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).toMatch(/--no-browser/);
    expect(stdout).toMatch(/--timeout <ms> +request timeout .*each progress notification restarts it/);
    expect(stdout).toMatch(/3 +connection failure .*TLS/);
    expect(stdout).toMatch(/serve: cannot listen, e\.g\. the port is in use/);
    expect(stdout).toMatch(/130 +interrupted \(Ctrl-C\), except for listen and serve/);
  });

  it('a command lists only its own options, in its own words', async () => {
    const login = await runCli(['help', 'login']);
    expect(login.stdout).not.toMatch(/--transport/);
    const serveHelp = await runCli(['help', 'serve']);
    expect(serveHelp.stdout).toMatch(
      /--transport <name> +what to serve over: http \(default\), sse, ws, grpc or stdio/,
    );
    const call = await runCli(['help', 'call']);
    expect(call.stdout).not.toMatch(/listen: one object per line/);
    expect(call.stdout).toMatch(/required and enum arguments are checked before sending/);
    const listen = await runCli(['help', 'listen']);
    expect(listen.stdout).toMatch(/--json +print one JSON object per notification and line/);
    const tools = await runCli(['help', 'tools']);
    expect(tools.stdout).toMatch(/--transport <name> +for http\(s\) URLs: http \(Streamable HTTP only\)/);
  });
});

describe('pnpm -s x-mcp', () => {
  it('prints only what x-mcp prints: no turbo banner or summary on stderr', async () => {
    const { stdout, stderr } = await run('pnpm', ['-s', 'x-mcp', '--version'], {
      cwd: ROOT,
      timeout: 240_000,
    });
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(stderr).toBe('');
  }, 250_000);
});
