import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorCode, type JSONRPCMessage, McpError } from '@x/protocol';
import { StdioClientTransport } from '@x/transport-stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { e2eClient, Resources, rejectionOf } from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue #24 items 9 and 10 against a real server process on stdio: a result JSON cannot encode is
// answered (-32603 naming the method) instead of leaving the client to its timeout, and a request
// reusing an in-flight id is answered -32600 while the original is answered once.

const built = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SERVER = built('./fixtures/hardening-stdio-server.mjs');
const BUILT_PACKAGES = ['server', 'transport-stdio', 'protocol'].map((name) =>
  built(`../../../packages/${name}/dist/index.js`),
);

const resources = new Resources();
afterEach(() => resources.closeAll());

beforeAll(() => {
  const missing = BUILT_PACKAGES.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(
      `Build first (pnpm turbo run build --filter=@x/integration...); missing ${missing.join(', ')}`,
    );
  }
});

function spawnServer(): StdioClientTransport {
  return resources.track(
    new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'inherit' }),
  );
}

describe('stdio: a result JSON cannot encode (issue #24 item 9)', () => {
  it.each(['legacy', 'auto'] as const)(
    '%s client: answered -32603 "Result of tools/call could not be serialized", well before its timeout',
    async (protocolVersion) => {
      const client = resources.track(e2eClient({ timeout: 60_000, protocolVersion }));
      await client.connect(spawnServer());
      const started = performance.now();
      for (const [name, reason] of [
        ['bigint', /BigInt/],
        ['cycle', /circular/i],
      ] as const) {
        const error = await rejectionOf(client.callTool({ name, arguments: {} }));
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(ErrorCode.InternalError);
        expect((error as McpError).message).toMatch(/^Result of tools\/call could not be serialized: /);
        expect((error as McpError).message).toMatch(reason);
      }
      expect(performance.now() - started).toBeLessThan(30_000);
      await expect(client.callTool({ name: 'fine', arguments: {} })).resolves.toMatchObject({ content: [] });
    },
  );
});

describe('stdio: duplicate in-flight request ids (issue #24 item 10)', () => {
  it('the duplicate gets -32600, the original its result once', async () => {
    const transport = spawnServer();
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor(() => received.length === 1, { what: 'the initialize result', timeoutMs: 20_000 });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } } as const;
    await transport.send(call);
    await transport.send(call);
    await waitFor(() => received.length === 2, { what: 'the answer to the duplicate', timeoutMs: 20_000 });
    expect(received[1]).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: ErrorCode.InvalidRequest,
        message: 'Duplicate request id 7: a request with this id is still in flight',
      },
    });
    await transport.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'release' } });
    await waitFor(() => received.some((m) => 'id' in m && m.id === 8), {
      what: 'the release answer',
      timeoutMs: 20_000,
    });
    await waitFor(() => received.filter((m) => 'id' in m && m.id === 7).length === 2, {
      what: 'the original result',
      timeoutMs: 20_000,
    });
    expect(received.filter((m) => 'id' in m && m.id === 7)[1]).toMatchObject({ result: { content: [] } });
  });
});
