import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { JSONRPCMessage } from '@x/protocol';
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { WebSocketClientTransport, type WebSocketClientTransportOptions } from '../src/index.js';
import {
  type WebSocketHandler,
  type WebSocketListenOptions,
  type WebSocketServerTransport,
  listenWebSocket,
  createWebSocketHandler,
} from '../src/node.js';
import { startHttpServer, waitFor } from '@x/test-kit';

type Cleanup = () => unknown;
const cleanups: Cleanup[] = [];

/** Registers a disposer; every test's resources are released in reverse order after it. */
export function defer(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

export interface ServerSide {
  listener: WebSocketHandler;
  url: URL;
  /** Server transports, in connection order, already started, recording what they receive. */
  transports: WebSocketServerTransport[];
  received: JSONRPCMessage[][];
  next(): Promise<WebSocketServerTransport>;
}

/**
 * A standalone listener on 127.0.0.1:0 whose connections echo requests as `{ echo: params }` unless
 * `echo` is false.
 */
export async function startServer(
  options: Partial<WebSocketListenOptions> & { echo?: boolean; autoStart?: boolean } = {},
): Promise<ServerSide> {
  const { echo = true, autoStart = true, ...listenOptions } = options;
  const transports: WebSocketServerTransport[] = [];
  const received: JSONRPCMessage[][] = [];
  const listener = await listenWebSocket({
    port: 0,
    keepAliveMs: 0,
    ...listenOptions,
    onsession: async (transport, context) => {
      const inbox: JSONRPCMessage[] = [];
      transports.push(transport);
      received.push(inbox);
      transport.onmessage = (message) => {
        inbox.push(message);
        if (echo && 'method' in message && 'id' in message) {
          transport
            .send({ jsonrpc: '2.0', id: message.id, result: { echo: message.params ?? null } })
            .catch(() => {});
        }
      };
      if (autoStart) await transport.start();
      await listenOptions.onsession?.(transport, context);
    },
  });
  defer(() => listener.close());
  const url = listener.url;
  if (url === undefined) throw new Error('listener has no address');
  let seen = 0;
  return {
    listener,
    url,
    transports,
    received,
    next: async () => {
      const index = seen++;
      await waitFor(() => transports.length > index, { timeoutMs: 5_000, what: `connection #${index}` });
      return transports[index]!;
    },
  };
}

export async function startClient(
  url: URL,
  options: WebSocketClientTransportOptions = {},
): Promise<{ transport: WebSocketClientTransport; received: JSONRPCMessage[] }> {
  const transport = new WebSocketClientTransport(url, { keepAliveMs: 0, ...options });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  defer(() => transport.close());
  return { transport, received };
}

/** A bare `ws` client, for sending what our transports never would. */
export function rawClient(
  url: URL,
  options: { protocols?: string[]; origin?: string; autoPong?: boolean } = {},
) {
  const socket = new WebSocket(url, options.protocols ?? ['mcp'], {
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    autoPong: options.autoPong ?? true,
  });
  socket.on('error', () => {});
  defer(() => socket.terminate());
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      reject(new Error(`HTTP ${response.statusCode}`));
    });
    socket.once('close', () => reject(new Error('closed before open')));
  });
  opened.catch(() => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  return { socket, opened, closed };
}

/** Status of a refused upgrade, via a bare client. */
export function upgradeStatus(
  url: URL,
  options: { protocols?: string[]; origin?: string } = {},
): Promise<number | 'open'> {
  const { socket } = rawClient(url, options);
  return new Promise((resolve) => {
    socket.once('open', () => resolve('open'));
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
  });
}

/** A TCP client that completes the upgrade by hand and then never reads another byte. */
export function stalledClient(url: URL): Socket {
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => {});
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
      'Sec-WebSocket-Protocol: mcp\r\n\r\n',
  );
  socket.pause();
  defer(() => socket.destroy());
  return socket;
}

/** A plain HTTP server on 127.0.0.1:0 (the kit's), closed after the test; WebSocket handlers attach to it. */
export async function plainHttpServer(): Promise<Server> {
  const http = await startHttpServer((_request, response) => response.end('plain http'));
  defer(http.close);
  return http.server;
}

export function request(id: number | string, params: Record<string, unknown> = {}): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'test/echo', params };
}

/**
 * A listener on its own HTTP server that keeps the raw TCP socket of every upgrade, for tests that
 * break or inspect the connection under the WebSocket.
 */
export async function listenerWithSockets(): Promise<{ listener: WebSocketHandler; sockets: Socket[] }> {
  const http = await plainHttpServer();
  const sockets: Socket[] = [];
  http.on('upgrade', (_request, socket) => sockets.push(socket as Socket));
  const listener = createWebSocketHandler({
    server: http,
    keepAliveMs: 0,
    onsession: (transport) => transport.start(),
  });
  defer(() => listener.close());
  return { listener, sockets };
}
