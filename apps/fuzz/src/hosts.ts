import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@x/server';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as sseNodeHandler } from '@x/transport-sse/node';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { listenWebSocket } from '@x/transport-ws/node';

/** A server transport listening on 127.0.0.1 (port 0) with an McpServer behind it. */
export interface Host {
  readonly url: URL;
  close(): Promise<void>;
}

async function listen(http: Server, path: string, onclose: () => Promise<void>): Promise<Host> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    close: async () => {
      await onclose();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Streamable HTTP (both eras on one endpoint) at `/mcp`. */
export function hostStreamableHttp(server: McpServer): Promise<Host> {
  const handler = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });
  const node = toNodeHandler(handler);
  return listen(
    createServer((req, res) => void node(req, res)),
    '/mcp',
    () => handler.close(),
  );
}

/** Legacy HTTP+SSE (2024-11-05) at `/sse`. */
export function hostSse(server: McpServer): Promise<Host> {
  const sse = createSseHandler({ onsession: (transport) => server.connect(transport) });
  const handle = sseNodeHandler(sse);
  return listen(
    createServer((req, res) => void handle(req, res)),
    '/sse',
    () => sse.close(),
  );
}

/** WebSocket (subprotocol `mcp`). */
export async function hostWebSocket(server: McpServer): Promise<Host> {
  const listener = await listenWebSocket({
    port: 0,
    host: '127.0.0.1',
    onsession: (transport) => server.connect(transport),
  });
  const url = listener.url;
  if (url === undefined) throw new Error('the WebSocket listener has no address');
  return { url, close: () => listener.close() };
}
