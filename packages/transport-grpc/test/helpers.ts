import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type VersionSelection } from '@x/client';
import { McpServer } from '@x/server';
import { z } from 'zod';
import {
  GrpcClientTransport,
  type GrpcClientTransportOptions,
  type GrpcListener,
  type GrpcListenOptions,
  type GrpcServerTransport,
  type GrpcSessionContext,
  listenGrpc,
} from '../src/index.js';

/** A listener whose sessions queue up for the test to take, started. */
export interface Sessions extends AsyncDisposable {
  listener: GrpcListener;
  next(): Promise<{ transport: GrpcServerTransport; context: GrpcSessionContext }>;
}

export async function startSessions(options: Partial<GrpcListenOptions> = {}): Promise<Sessions> {
  const queue: { transport: GrpcServerTransport; context: GrpcSessionContext }[] = [];
  const waiters: ((entry: { transport: GrpcServerTransport; context: GrpcSessionContext }) => void)[] = [];
  const listener = await listenGrpc({
    port: 0,
    keepAliveMs: 0,
    ...options,
    onsession: async (transport, context) => {
      await transport.start();
      const entry = { transport, context };
      const waiter = waiters.shift();
      if (waiter === undefined) queue.push(entry);
      else waiter(entry);
    },
  });
  return {
    listener,
    next: () => {
      const ready = queue.shift();
      return ready === undefined ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve(ready);
    },
    [Symbol.asyncDispose]: () => listener.close(),
  };
}

/** An McpServer with a tool, a resource and a prompt, and the big-result tool the burst test calls. */
export function demoServer(): McpServer {
  const mcp = new McpServer({ name: 'grpc-demo', version: '1.0.0' });
  mcp.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  mcp.registerTool(
    'blob',
    { inputSchema: z.object({ bytes: z.number(), tag: z.string() }) },
    ({ bytes, tag }) => ({
      content: [{ type: 'text', text: tag + 'x'.repeat(bytes - tag.length) }],
    }),
  );
  mcp.registerTool('whoami', {}, (_args, ctx) => ({
    content: [{ type: 'text', text: String(ctx.authInfo?.clientId) }],
  }));
  mcp.registerResource('greeting', 'demo://greeting', {}, () => ({
    contents: [{ uri: 'demo://greeting', text: 'hello over gRPC' }],
  }));
  mcp.registerPrompt('hi', {}, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  }));
  return mcp;
}

/** `listenGrpc` serving {@link demoServer}. */
export async function startMcp(options: Partial<GrpcListenOptions> = {}): Promise<GrpcListener> {
  const mcp = demoServer();
  return listenGrpc({
    port: 0,
    keepAliveMs: 0,
    ...options,
    onsession: (transport) => mcp.connect(transport),
  });
}

/** A connected x-mcp Client over gRPC; the caller closes it. */
export async function connectClient(
  target: string,
  options: GrpcClientTransportOptions & { era?: VersionSelection } = {},
): Promise<{ client: Client; transport: GrpcClientTransport }> {
  const { era, ...transportOptions } = options;
  const client = new Client(
    { name: 'grpc-test', version: '1.0.0' },
    era === undefined ? {} : { protocolVersion: era },
  );
  const transport = new GrpcClientTransport(target, { keepAliveMs: 0, ...transportOptions });
  await client.connect(transport);
  return { client, transport };
}

/** PEM material for a CA, a server certificate for 127.0.0.1/localhost and a client certificate. */
export interface Certificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** Generates fresh certificates with the system's `openssl` (a missing openssl fails the test loudly). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'x-mcp-grpc-certs-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=x-mcp test CA',
    );
    for (const name of ['server', 'client']) {
      run(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        `/CN=${name === 'server' ? 'localhost' : 'x-mcp test client'}`,
      );
      const ext =
        name === 'server' ? 'subjectAltName=DNS:localhost,IP:127.0.0.1' : 'extendedKeyUsage=clientAuth';
      execFileSync('sh', ['-c', `printf '%s\\n' '${ext}' > ${name}.ext`], { cwd: dir });
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
    }
    const read = (file: string) => readFileSync(join(dir, file), 'utf8');
    return {
      ca: read('ca.pem'),
      serverCert: read('server.pem'),
      serverKey: read('server.key'),
      clientCert: read('client.pem'),
      clientKey: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}
