import { ErrorCode, type JSONRPCMessage, McpError } from '@x/protocol';
import { Server } from '@x/server';
import { MCP_SUBPROTOCOL, WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TextQueue } from './fixtures/batch-helpers.js';
import { e2eClient, Resources, rejectionOf } from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue #24 items 9 and 10 over a real WebSocket on 127.0.0.1: a result JSON cannot encode is answered
// (-32603 naming the method) instead of leaving the client to its timeout, and a request reusing an
// in-flight id is answered -32600 while the original is answered once.

const resources = new Resources();
afterEach(() => resources.closeAll());

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

function hostileServer(): { server: Server; release: () => void; running: () => number } {
  const server = new Server({ name: 'hardening', version: '1' }, { capabilities: { tools: {} } });
  const waiting: Array<() => void> = [];
  const cyclic: Record<string, unknown> = { content: [] };
  cyclic['self'] = cyclic;
  server.setRequestHandler('tools/call', (params) => {
    switch (params['name']) {
      case 'bigint':
        return { content: [], structuredContent: { n: 10n ** 30n } };
      case 'cycle':
        return cyclic;
      case 'slow':
        return new Promise<object>((resolve) => waiting.push(() => resolve({ content: [] })));
      default:
        return { content: [] };
    }
  });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  return { server, release: () => waiting.shift()?.(), running: () => waiting.length };
}

async function host(server: Server): Promise<URL> {
  const listener = await listenWebSocket({
    port: 0,
    onsession: (transport) => server.connect(transport),
  });
  resources.track(listener);
  if (listener.url === undefined) throw new Error('the listener has no address');
  return listener.url;
}

describe('a result JSON cannot encode, over WebSocket (issue #24 item 9)', () => {
  it.each(['legacy', 'auto'] as const)(
    '%s client: tools/call answered -32603 "Result of tools/call could not be serialized" well before its timeout',
    async (protocolVersion) => {
      const url = await host(hostileServer().server);
      const client = resources.track(e2eClient({ timeout: 60_000, protocolVersion }));
      await client.connect(new WebSocketClientTransport(url));
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
      // Answered, not timed out (60 s); the connection still works.
      expect(performance.now() - started).toBeLessThan(30_000);
      await expect(client.callTool({ name: 'fine', arguments: {} })).resolves.toMatchObject({ content: [] });
    },
  );
});

describe('duplicate in-flight request ids, over WebSocket (issue #24 item 10)', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s: the duplicate gets -32600, the original its result once',
    async (era) => {
      const { server, release } = hostileServer();
      const url = await host(server);
      const transport = resources.track(new WebSocketClientTransport(url));
      const received: JSONRPCMessage[] = [];
      transport.onmessage = (message) => received.push(message);
      await transport.start();
      const meta = era === 'modern' ? { _meta: MODERN_META } : {};
      if (era === 'legacy') {
        await transport.send({
          jsonrpc: '2.0',
          id: 'init',
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        });
        await waitFor(() => received.length === 1, { what: 'the initialize result' });
        await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      const call = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'slow', ...meta },
      } as const;
      const before = received.length;
      await transport.send(call);
      await transport.send(call);
      await waitFor(() => received.length === before + 1, { what: 'the answer to the duplicate' });
      expect(received[before]).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'Duplicate request id 7: a request with this id is still in flight',
        },
      });
      release();
      await waitFor(() => received.length === before + 2, { what: 'the original result' });
      expect(received[before + 1]).toMatchObject({ jsonrpc: '2.0', id: 7, result: { content: [] } });
      // Nothing else comes for id 7: a ping round trip later, still two answers.
      await transport.send({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { ...meta } });
      await waitFor(() => received.some((m) => 'id' in m && m.id === 8), { what: 'the tools/list answer' });
      expect(received.filter((m) => 'id' in m && m.id === 7)).toHaveLength(2);
    },
  );
});

describe('duplicate ids in a 2025-03-26 batch, over WebSocket (issue #24 item 10)', () => {
  it("answers both copies in the batch's one array: -32600 for the duplicate, the result for the original", async () => {
    const { server, release, running } = hostileServer();
    const url = await host(server);
    const socket = new WebSocket(url, MCP_SUBPROTOCOL);
    resources.track({ close: () => socket.terminate() });
    const frames = new TextQueue();
    socket.on('message', (data) => frames.push(String(data)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-03-26',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    expect(JSON.parse(await frames.next())).toMatchObject({
      id: 0,
      result: { protocolVersion: '2025-03-26' },
    });
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow' } };
    socket.send(JSON.stringify([call, call]));
    // The batch is answered once both are: release the original once it runs.
    await waitFor(() => running() === 1, { what: 'the original to be running' });
    release();
    const answer = JSON.parse(await frames.next()) as unknown[];
    expect(answer).toEqual([
      {
        jsonrpc: '2.0',
        id: 5,
        // Refused by the batch reader before delivery (or by the engine, had it been delivered).
        error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/request id 5/i) },
      },
      { jsonrpc: '2.0', id: 5, result: { content: [] } },
    ]);
    // Nothing else follows for id 5: the next frame answers a later ping.
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }));
    expect(JSON.parse(await frames.next())).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
  });
});
