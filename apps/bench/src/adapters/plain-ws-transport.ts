import WebSocket, { WebSocketServer } from 'ws';
import type { ServerHandle } from './types.js';

/**
 * The thinnest possible MCP WebSocket transport (one JSON-RPC message per text frame), for SDKs that
 * ship no WebSocket server (v1, v2) or client (v2). Generic over the SDK's message type so it plugs
 * into either SDK's `Transport` slot without casts at the call site.
 */
export class PlainWsTransport<M> {
  onmessage?: (message: M) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #socket: WebSocket;

  constructor(socket: WebSocket) {
    this.#socket = socket;
  }

  async start(): Promise<void> {
    this.#socket.on('message', (data) => this.onmessage?.(JSON.parse(String(data)) as M));
    this.#socket.on('close', () => this.onclose?.());
    this.#socket.on('error', (error) => this.onerror?.(error));
  }

  async send(message: M): Promise<void> {
    this.#socket.send(JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.#socket.close();
  }
}

/** Opens a client socket with the `mcp` subprotocol. */
export async function openWs(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url, 'mcp');
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** A `ws` server on a random loopback port handing each connection to `onsocket`. */
export async function serveWs(onsocket: (socket: WebSocket) => void): Promise<ServerHandle> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', onsocket);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return {
    port: address.port,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
