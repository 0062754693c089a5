import type { McpServer } from '@x/server';

// Each function loads its transport package itself: `serve` pays only for the one it runs.
import { closeHttp, listenHttp } from './http-listen.js';
import type { ListeningServer } from './listening-server.js';

export interface ServeOptions {
  readonly server: McpServer;
  readonly host: string;
  readonly port: number;
  /** Transport faults that belong to no request, e.g. a failed session setup. */
  readonly onerror: (error: Error) => void;
}

/** Streamable HTTP (both eras) at `/mcp`; one McpServer serves every session. */
export async function serveHttp(options: ServeOptions): Promise<ListeningServer> {
  const [{ createStreamableHttpHandler }, { toNodeHandler }] = await Promise.all([
    import('@x/transport-streamable-http'),
    import('@x/transport-streamable-http/node'),
  ]);
  const handler = createStreamableHttpHandler({
    onsession: (transport) => options.server.connect(transport),
  });
  const nodeHandler = toNodeHandler(handler);
  const { server, url } = await listenHttp({
    host: options.host,
    port: options.port,
    path: '/mcp',
    handle: (req, res) => void nodeHandler(req, res),
  });
  return {
    url: url.href,
    done: new Promise(() => {}),
    close: async () => {
      await handler.close();
      await closeHttp(server);
    },
  };
}

/** Legacy HTTP+SSE (2024-11-05) at `/sse`: GET opens the stream, POSTs go to the same path. */
export async function serveSse(options: ServeOptions): Promise<ListeningServer> {
  const [{ createSseHandler }, { toNodeHandler }] = await Promise.all([
    import('@x/transport-sse'),
    import('@x/transport-sse/node'),
  ]);
  const sse = createSseHandler({
    onsession: (transport) => options.server.connect(transport).then(() => {}),
    onerror: options.onerror,
  });
  const nodeHandler = toNodeHandler(sse);
  const { server, url } = await listenHttp({
    host: options.host,
    port: options.port,
    path: '/sse',
    handle: (req, res) => void nodeHandler(req, res),
  });
  return {
    url: url.href,
    done: new Promise(() => {}),
    close: async () => {
      await sse.close();
      await closeHttp(server);
    },
  };
}

/** WebSocket (subprotocol `mcp`) at `/mcp`. */
export async function serveWs(options: ServeOptions): Promise<ListeningServer> {
  const { listenWebSocket } = await import('@x/transport-ws/node');
  const listener = await listenWebSocket({
    port: options.port,
    host: options.host,
    path: '/mcp',
    onsession: (transport) => options.server.connect(transport).then(() => {}),
    onerror: options.onerror,
  });
  return {
    url: listener.url?.href,
    done: new Promise(() => {}),
    close: () => listener.close(),
  };
}

/** stdio on this process's stdin/stdout; it stops when the client closes stdin. */
export async function serveStdio(options: ServeOptions): Promise<ListeningServer> {
  const { StdioServerTransport } = await import('@x/transport-stdio');
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => process.stdin.once('end', () => resolve()));
  await options.server.connect(transport);
  return { url: undefined, done, close: () => transport.close() };
}
