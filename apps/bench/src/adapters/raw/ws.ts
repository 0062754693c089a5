import WebSocket, { WebSocketServer } from 'ws';
import type { BenchSession, ServerHandle, ServerTarget } from '../types.js';
import { respond } from './responder.js';
import { rawBig, rawEcho, rawHandshake, RpcClient, type RawResponse } from './rpc-client.js';

/** Raw WebSocket server on plain `ws`: one JSON-RPC message per text frame. */
export async function serveRawWs(): Promise<ServerHandle> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const reply = respond(JSON.parse(String(data)));
      if (reply !== undefined) socket.send(JSON.stringify(reply));
    });
  });
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

/** Raw WebSocket client on plain `ws`. */
export async function connectRawWs(target: ServerTarget): Promise<BenchSession> {
  const socket = new WebSocket(`ws://127.0.0.1:${target.port}/`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const rpc = new RpcClient((message) => socket.send(JSON.stringify(message)));
  socket.on('message', (data) => rpc.deliver(JSON.parse(String(data)) as RawResponse));
  await rawHandshake(rpc);
  return {
    echo: () => rawEcho(rpc),
    big: () => rawBig(rpc),
    close: async () => {
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.close();
      await closed;
    },
  };
}
