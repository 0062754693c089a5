import { MCP_SUBPROTOCOL, WebSocketClientTransport } from '@x/transport-ws';
import { listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { clientBatchCases, type RawPeer, serverBatchCases, TextQueue } from './fixtures/batch-helpers.js';
import { createBatchScript } from './fixtures/batch-script.mjs';
import { createE2eServer, Resources } from './fixtures/e2e-helpers.js';

// JSON-RPC batches over WebSocket: one text frame holds one message or one batch. Real sockets on
// 127.0.0.1; the cases and the spec sentences they check are in batch-helpers.ts.

const resources = new Resources();
afterEach(() => resources.closeAll());

/** A raw `ws` socket to our McpServer behind a WebSocketHandler: exact frames both ways. */
async function rawWebSocket(): Promise<RawPeer> {
  const server = createE2eServer();
  const listener = resources.track(
    await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      onsession: (t) => server.connect(t),
    }),
  );
  const socket = new WebSocket(listener.url as URL, MCP_SUBPROTOCOL);
  resources.track({ close: () => socket.terminate() });
  const frames = new TextQueue();
  socket.on('message', (data) => frames.push(String(data)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) =>
        socket.send(text, (error) => (error ? reject(error) : resolve())),
      ),
    next: () => frames.next(),
  };
}

describe('WebSocket server: JSON-RPC batches', () => {
  serverBatchCases(rawWebSocket);
});

describe('WebSocket client: JSON-RPC batches from the server', () => {
  clientBatchCases(resources, async (client) => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => MCP_SUBPROTOCOL });
    resources.track({ close: () => new Promise((resolve) => wss.close(resolve)) });
    await new Promise((resolve) => wss.once('listening', resolve));
    const script = createBatchScript();
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        for (const out of script.onText(String(data))) socket.send(out);
      });
    });
    const { port } = wss.address() as { port: number };
    const transport = resources.track(new WebSocketClientTransport(`ws://127.0.0.1:${port}`));
    await client.connect(transport);
    return { transport, received: () => script.received };
  });
});
