import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { McpServer } from '@x/server';
import { type GrpcListener, GrpcNativeClient, listenGrpc } from '@x/transport-grpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, serve, unusedPort } from './helpers/cli-process.js';

beforeAll(assertBuilt);
afterEach(killAll);

describe('grpc:// targets against x-mcp serve --transport grpc', () => {
  it('serve prints its grpc:// URL; info, call and the legacy era go through the tunnel', async () => {
    const { url } = await serve('grpc');
    expect(url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    const info = await runCli(['info', '--json', url]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ transport: 'grpc', era: 'modern' });
    const call = await runCli(['call', 'test_simple_text', url]);
    expect(call).toMatchObject({ code: 0, stdout: 'This is a simple text response for testing.\n' });
    const legacy = await runCli(['read', 'test://static-text', '--legacy', url]);
    expect(legacy).toMatchObject({ code: 0, stdout: 'This is the content of the static text resource.\n' });
    // The same port serves the native protobuf binding of the same server.
    const native = new GrpcNativeClient(url);
    try {
      const tools = await native.listTools();
      expect(tools.map((tool) => tool['name'])).toContain('test_simple_text');
    } finally {
      native.close();
    }
  });

  it('nothing listening: a connection failure (exit 3) naming the target', async () => {
    const port = await unusedPort();
    const run = await runCli(['ping', '--timeout', '20000', `grpc://127.0.0.1:${port}`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`127.0.0.1:${port}`);
  });

  it('a grpc:// URL with a path is a usage error (exit 2)', async () => {
    const run = await runCli(['tools', 'grpc://127.0.0.1:1/mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give grpc:\/\/host:port or grpcs:\/\/host:port/);
  });
});

const run = promisify(execFile);
const TOKEN = 'grpc-s3cret';

/** An McpServer over gRPC with TLS whose `authenticate` wants `Bearer grpc-s3cret` in the metadata. */
describe('grpcs:// targets (TLS, metadata)', () => {
  let dir = '';
  let listener: GrpcListener | undefined;
  let target = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'x-mcp-grpcs-'));
    // A throwaway self-signed certificate for 127.0.0.1 (none is committed), trusted by the CLI through
    // NODE_EXTRA_CA_CERTS like an https target's.
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
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    const mcp = new McpServer({ name: 'grpcs-test', version: '1.0.0' });
    mcp.registerTool('whoami', {}, (_args, ctx) => ({
      content: [{ type: 'text', text: String(ctx.authInfo?.clientId) }],
    }));
    listener = await listenGrpc({
      port: 0,
      tls: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) },
      authenticate: (request) =>
        request.headers.get('authorization') === `Bearer ${TOKEN}`
          ? { token: TOKEN, clientId: 'cli-user', scopes: [] }
          : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
      onsession: (transport) => mcp.connect(transport),
    });
    target = `grpcs://127.0.0.1:${listener.port}`;
  });

  afterAll(async () => {
    await listener?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--token travels as authorization metadata over TLS', async () => {
    // GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (set on some CI machines) would replace Node's roots in grpc-js.
    const env = { NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '' };
    const call = await runCli(['call', 'whoami', '--token', TOKEN, target], { env });
    expect(call).toMatchObject({ code: 0, stdout: 'cli-user\n' });
    const refused = await runCli(['call', 'whoami', target], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/UNAUTHENTICATED/);
  });

  it('an untrusted certificate is a connection failure (exit 3)', async () => {
    const env = { GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: '' };
    const call = await runCli(['call', 'whoami', '--token', TOKEN, '--timeout', '20000', target], { env });
    expect(call.code).toBe(3);
    expect(call.stdout).toBe('');
  });
});
