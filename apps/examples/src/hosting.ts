import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transport } from '@x/protocol';
import { createSseHandler } from '@x/transport-sse';
import { toNodeHandler as toSseNodeHandler } from '@x/transport-sse/node';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { listenWebSocket } from '@x/transport-ws/node';

/** Anything with `connect(transport)`: an `McpServer`, a low-level `Server`. */
export interface Connectable {
  connect(transport: Transport): Promise<unknown>;
}

/** A running endpoint on 127.0.0.1; `await using` closes it. */
export interface Hosted {
  readonly url: URL;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function listen(http: HttpServer, path: string): Promise<URL> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', resolve);
  });
  const { port } = http.address() as AddressInfo;
  return new URL(`http://127.0.0.1:${port}${path}`);
}

function hosted(url: URL, close: () => Promise<void>): Hosted {
  return { url, close, [Symbol.asyncDispose]: close };
}

function closeHttp(http: HttpServer): Promise<void> {
  http.closeAllConnections();
  return new Promise((resolve) => http.close(() => resolve()));
}

/** Serves `server` over Streamable HTTP (both eras on one endpoint) at `/mcp`. */
export async function hostStreamableHttp(
  server: Connectable,
  options: { enableJsonResponse?: boolean } = {},
): Promise<Hosted> {
  const handler = createStreamableHttpHandler({
    onsession: (transport) => server.connect(transport),
    enableJsonResponse: options.enableJsonResponse ?? false,
  });
  const handle = toNodeHandler(handler);
  const http = createServer((req, res) => void handle(req, res));
  const url = await listen(http, '/mcp');
  return hosted(url, async () => {
    await handler.close();
    await closeHttp(http);
  });
}

/** Serves `server` over the legacy HTTP+SSE transport (GET `/sse`, then POST to the announced URL). */
export async function hostSse(server: Connectable): Promise<Hosted> {
  const sse = createSseHandler({
    onsession: (transport) => server.connect(transport),
  });
  const handle = toSseNodeHandler(sse);
  const http = createServer((req, res) => void handle(req, res));
  const url = await listen(http, '/sse');
  return hosted(url, async () => {
    await sse.close();
    await closeHttp(http);
  });
}

/** Serves `server` over WebSocket (subprotocol `mcp`). */
export async function hostWebSocket(server: Connectable): Promise<Hosted> {
  const listener = await listenWebSocket({
    port: 0,
    onsession: (transport) => server.connect(transport),
  });
  const url = listener.url;
  if (url === undefined) throw new Error('WebSocket listener has no address');
  return hosted(url, () => listener.close());
}

/** The gRPC tunnel (`mcp.transport.v1.Mcp/Session`) on a free loopback port; the URL is `grpc://host:port`. */
export async function hostGrpc(server: Connectable): Promise<Hosted> {
  // Loaded here: the other hosts' users do not pay for grpc-js.
  const { listenGrpc } = await import('@x/transport-grpc');
  const listener = await listenGrpc({
    port: 0,
    onsession: (transport) => server.connect(transport),
  });
  return hosted(new URL(`grpc://${listener.target}`), () => listener.close());
}
