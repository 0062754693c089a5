import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Client } from '@x/client';
import { ConnectionClosedError, ErrorCode, type McpError } from '@x/protocol';
import { ServerExitError, StdioClientTransport } from '@x/transport-stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  e2eClient,
  methodsOf,
  payload,
  recordSends,
  rejectionOf,
  Resources,
  textOf,
} from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue 5, end-to-end: the real x-mcp Client drives a real server process over its stdin/stdout. The
// servers run on plain Node from the built packages (Node 20 cannot run .ts): the everything-server's
// stdio entry from apps/examples, and fixtures/e2e-stdio-server.mjs for big results and crashes.

const built = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const EVERYTHING_SERVER = built('../../examples/dist/stdio-server.js');
const E2E_SERVER = built('./fixtures/e2e-stdio-server.mjs');
const BUILT_PACKAGES = ['server', 'transport-stdio', 'protocol'].map((name) =>
  built(`../../../packages/${name}/dist/index.js`),
);

const resources = new Resources();
afterEach(() => resources.closeAll());

beforeAll(() => {
  const missing = [EVERYTHING_SERVER, ...BUILT_PACKAGES].filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(
      `Build first (pnpm turbo run build --filter=@x/integration... --filter=@x/examples); missing ${missing.join(', ')}`,
    );
  }
});

interface Spawned {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

function serverTransport(
  script: string,
  options: { stdinCloseTimeoutMs?: number; args?: string[]; maxLineBytes?: number } = {},
) {
  const { args = [], ...rest } = options;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...args],
    stderr: 'pipe',
    ...rest,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return { transport: resources.track(transport), stderr: () => stderr };
}

async function connectTo(script: string, client: Client = e2eClient()): Promise<Spawned> {
  const { transport, stderr } = serverTransport(script);
  resources.track(client);
  await client.connect(transport);
  return { client, transport, stderr };
}

describe('stdio end to end (issue 5)', () => {
  it.each([
    {
      selection: 'legacy',
      era: 'legacy',
      version: '2025-11-25',
      handshake: ['initialize', 'notifications/initialized'],
    },
    {
      selection: '2024-11-05',
      era: 'legacy',
      version: '2024-11-05',
      handshake: ['initialize', 'notifications/initialized'],
    },
    { selection: 'modern', era: 'modern', version: '2026-07-28', handshake: ['server/discover'] },
  ] as const)(
    'pins $selection against the everything-server process: $era era, version $version',
    async ({ selection, era, version, handshake }) => {
      const { transport, sent } = recordSends(serverTransport(EVERYTHING_SERVER).transport);
      const client = resources.track(e2eClient({ protocolVersion: selection }));
      await client.connect(transport);

      expect(client.era).toBe(era);
      expect(client.protocolVersion).toBe(version);
      expect(client.serverInfo?.name).toBe('x-mcp-everything-server');
      expect(client.instructions).toBe('Conformance fixture server for x-mcp.');
      const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
      expect(textOf(result)).toBe('This is a simple text response for testing.');
      expect(methodsOf(sent)).toEqual([...handshake, 'tools/call']);
      // Modern requests carry the version in _meta; legacy ones never do.
      const call = sent.at(-1) as { params: { _meta?: Record<string, unknown> } };
      expect(call.params._meta?.['io.modelcontextprotocol/protocolVersion']).toBe(
        era === 'modern' ? version : undefined,
      );
    },
  );

  it('carries a 5 MiB tool result intact with the default limits', async () => {
    const { transport } = serverTransport(E2E_SERVER);
    const client = resources.track(e2eClient());
    await client.connect(transport);
    const length = 5 * 1024 * 1024;
    const result = await client.callTool({ name: 'blob', arguments: { length } });
    const received = textOf(result);
    expect(received.length).toBe(length);
    expect(received === payload(length)).toBe(true); // not toEqual: a 5 MiB diff would drown the report
  });

  it('answers 1,000 concurrent calls, each with its own result', async () => {
    const { client } = await connectTo(E2E_SERVER, e2eClient({ protocolVersion: 'legacy' }));
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        client.callTool({ name: 'echo', arguments: { text: `call-${i}` } }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 1_000 }, (_, i) => `call-${i}`));
  });

  it.each([
    {
      how: 'exits with code 7',
      args: { code: 7 },
      exit: { code: 7, signal: null },
      says: 'exited with code 7',
    },
    {
      how: 'is killed by SIGKILL',
      args: { signal: 'SIGKILL' },
      exit: { code: null, signal: 'SIGKILL' },
      says: 'was killed by SIGKILL',
    },
  ])(
    'server crash mid-request ($how): pending calls reject, onclose fires once, exit info is kept',
    async ({ args, exit, says }) => {
      const { client, transport, stderr } = await connectTo(E2E_SERVER);
      const errors: Error[] = [];
      client.onerror = (error) => errors.push(error);
      let closes = 0;
      client.onclose = () => closes++;
      // Both rejections are observed from the start: they land together when the process dies.
      const waiting = rejectionOf(client.callTool({ name: 'wait', arguments: {} }));
      const crashing = rejectionOf(client.callTool({ name: 'crash', arguments: args }));

      for (const rejected of [crashing, waiting]) {
        const error = await rejected;
        expect(error).toBeInstanceOf(ConnectionClosedError);
        expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
        // Issue #24 item 14: the error names the command, how it ended and its last stderr lines.
        expect(error).toBeInstanceOf(ServerExitError);
        expect((error as Error).message).toContain(`"${process.execPath} ${E2E_SERVER}" ${says}`);
        expect((error as Error).message).toContain('e2e-stdio-server: crashing');
      }
      expect(transport.closeReason).toBeInstanceOf(ServerExitError);
      expect(errors.some((error) => error instanceof ServerExitError)).toBe(true);
      await waitFor(() => closes === 1, { what: 'client onclose' });
      expect(transport.exitInfo).toEqual(exit);
      expect(client.era).toBeUndefined();
      // The server's logs went to stderr, never into the protocol stream.
      await waitFor(() => stderr().includes('e2e-stdio-server: crashing'), {
        what: 'the crash log on stderr',
      });
      // Later calls fail fast, and onclose does not fire again.
      const after = await rejectionOf(client.callTool({ name: 'echo', arguments: { text: 'x' } }));
      expect(after).toBeInstanceOf(ConnectionClosedError);
      expect(closes).toBe(1);
    },
  );

  it('stdin EOF ends the everything-server process with exit code 0 (raw pipe, no transport)', async () => {
    const child = spawn(process.execPath, [EVERYTHING_SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
    resources.track({
      close: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const lines = createInterface({ input: child.stdout });
    const firstLine = new Promise<string>((resolve) => lines.once('line', resolve));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const answer = JSON.parse(await firstLine) as { id: number; result: { protocolVersion: string } };
    expect(answer.id).toBe(1);
    expect(answer.result.protocolVersion).toBe('2025-11-25');

    child.stdin.end();
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void exited.then((value) => {
      exit = value;
    });
    await waitFor(() => exit !== undefined, { what: 'the server to exit after stdin EOF' });
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('client.close() ends the server through stdin EOF alone: exit code 0, no SIGTERM needed', async () => {
    // With a 20 s grace period, a server that ignored EOF would be SIGTERMed (and this test time out).
    const { transport } = serverTransport(E2E_SERVER, { stdinCloseTimeoutMs: 20_000 });
    const client = resources.track(e2eClient());
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'bye' } }))).toBe('bye');
    const started = Date.now();
    await client.close();
    expect(transport.exitInfo).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('console.log in a tool goes to stderr: a forged response line never reaches the client (issue #24 item 13)', async () => {
    const { client, stderr } = await connectTo(E2E_SERVER);
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    expect(textOf(await client.callTool({ name: 'forge', arguments: {} }))).toBe('real');
    await waitFor(() => stderr().includes('"forged"'), { what: 'the forged line on stderr' });
    expect(stderr()).toContain('│ forged │'); // console.table too
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect(errors).toEqual([]);
  });

  it('with redirectConsole: false the forged line does reach the client (the opt-out is real)', async () => {
    const { transport } = serverTransport(E2E_SERVER, { args: ['--no-redirect'] });
    const client = resources.track(e2eClient());
    client.onerror = () => undefined;
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'forge', arguments: {} }))).toBe('forged');
  });
});
