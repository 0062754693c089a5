// The official reference server (`@modelcontextprotocol/server-everything`, stdio) bridged to legacy
// HTTP+SSE and to WebSocket, driven by the official SDK 1.x client (its own SSE and WebSocket client
// transports). Node 20 has no global WebSocket, which the official client uses: the test lends it `ws`'s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { WebSocketClientTransport as SdkWebSocketTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { StdioClientTransport } from '@x/transport-stdio';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as sseNodeHandler } from '@x/transport-sse/node';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createBridge } from '../src/index.js';
import { cleanupAfterEach, everythingUpstream } from './helpers.js';

const cleanup = cleanupAfterEach();

const globals = globalThis as { WebSocket?: unknown };
const nativeWebSocket = globals.WebSocket;
beforeAll(() => {
  globals.WebSocket ??= NodeWebSocket;
});
afterAll(() => {
  globals.WebSocket = nativeWebSocket;
});

/** A bridge to one server-everything process per downstream session; its upstreams kept for pids. */
function bridgeToEverything() {
  const upstreams: StdioClientTransport[] = [];
  const bridge = createBridge({
    upstream: everythingUpstream(upstreams),
    upstreamName: 'server-everything',
    upstreamConnectTimeoutMs: 20_000,
  });
  cleanup.push(
    () => bridge.close(),
    async () => {
      for (const upstream of upstreams) await upstream.close();
    },
  );
  return { bridge, upstreams };
}

/** Lists tools and calls echo through the official client; closes it after the test. */
async function echoThrough(client: SdkClient, transport: Parameters<SdkClient['connect']>[0]) {
  cleanup.push(() => client.close());
  await client.connect(transport);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('echo');
  const result = await client.callTool({ name: 'echo', arguments: { message: 'through the bridge' } });
  expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('through the bridge') }]);
}

describe('server-everything bridged, driven by the official SDK client', { timeout: 60_000 }, () => {
  it('over legacy HTTP+SSE (2024-11-05)', async () => {
    const { bridge, upstreams } = bridgeToEverything();
    const sse = createSseHandler({
      onsession: (transport) => bridge.connect(transport).catch(() => undefined),
    });
    const handle = sseNodeHandler(sse);
    const http = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanup.push(async () => {
      await sse.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    const { port } = http.address() as AddressInfo;
    const client = new SdkClient({ name: 'official-downstream', version: '1.0.0' });
    await echoThrough(client, new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`)));
    expect(upstreams).toHaveLength(1);
  });

  it('over WebSocket', async () => {
    const { bridge, upstreams } = bridgeToEverything();
    const listener = await listenWebSocket({
      port: 0,
      onsession: (transport) => bridge.connect(transport).catch(() => undefined),
    });
    cleanup.push(() => listener.close());
    if (listener.url === undefined) throw new Error('the WebSocket listener has no address');
    const client = new SdkClient({ name: 'official-downstream', version: '1.0.0' });
    await echoThrough(client, new SdkWebSocketTransport(listener.url));
    expect(upstreams).toHaveLength(1);
  });
});
