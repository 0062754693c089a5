import type { Transport } from '@x/protocol/core';
import type { HttpAuthenticate } from '@x/protocol/http';

// Each function loads its transport package itself: `serve` pays only for the one it runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeHttp, listenHttp } from './http-listen.js';
import type { ListeningServer } from './listening-server.js';

/** What serves each session a front accepts: an `McpServer` (`serve`) or a bridge (`bridge`). */
export interface SessionHost {
  connect(transport: Transport): Promise<unknown>;
}

export interface ServeOptions {
  readonly server: SessionHost;
  readonly host: string;
  readonly port: number;
  /** Transport faults that belong to no request, e.g. a failed session setup. */
  readonly onerror: (error: Error) => void;
  /** `serve --auth-*`: called once the URL is known; gives the hook and the metadata route. */
  readonly protect?: ((url: URL) => Promise<ServeProtection>) | undefined;
}

/** What `protect` gives: the handlers' `authenticate` hook and the Protected Resource Metadata route. */
export interface ServeProtection {
  readonly authenticate: HttpAuthenticate;
  readonly metadataPath: string;
  readonly serveMetadata: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * A late-bound `authenticate` hook: the protection needs the server URL (known once listening, e.g.
 * with `--port 0`), the handler needs the hook before. Until it is set, requests get 503.
 */
function lateAuthenticate(): {
  hook: HttpAuthenticate;
  routes: Map<string, ServeProtection['serveMetadata']>;
  set(p: ServeProtection): void;
} {
  let current: HttpAuthenticate | undefined;
  const routes = new Map<string, ServeProtection['serveMetadata']>();
  return {
    hook: (request) =>
      current?.(request) ?? new Response(null, { status: 503, headers: { 'retry-after': '1' } }),
    routes,
    set: (protection) => {
      current = protection.authenticate;
      routes.set(protection.metadataPath, protection.serveMetadata);
    },
  };
}

/** Streamable HTTP (both eras) at `/mcp`; one McpServer serves every session. */
export async function serveHttp(options: ServeOptions): Promise<ListeningServer> {
  const [{ createStreamableHttpHandler }, { toNodeHandler }] = await Promise.all([
    import('@x/transport-streamable-http'),
    import('@x/transport-streamable-http/node'),
  ]);
  const auth = options.protect === undefined ? undefined : lateAuthenticate();
  const handler = createStreamableHttpHandler({
    onsession: (transport) => options.server.connect(transport),
    ...(auth === undefined ? {} : { authenticate: auth.hook }),
  });
  const nodeHandler = toNodeHandler(handler);
  const { server, url } = await listenHttp({
    host: options.host,
    port: options.port,
    path: '/mcp',
    handle: (req, res) => void nodeHandler(req, res),
    routes: auth?.routes,
  });
  if (auth !== undefined && options.protect !== undefined) {
    await options.protect(url).then(auth.set, async (error: unknown) => {
      await handler.close();
      await closeHttp(server);
      throw error;
    });
  }
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
  const auth = options.protect === undefined ? undefined : lateAuthenticate();
  const sse = createSseHandler({
    onsession: (transport) => options.server.connect(transport).then(() => {}),
    onerror: options.onerror,
    ...(auth === undefined ? {} : { authenticate: auth.hook }),
  });
  const nodeHandler = toNodeHandler(sse);
  const { server, url } = await listenHttp({
    host: options.host,
    port: options.port,
    path: '/sse',
    handle: (req, res) => void nodeHandler(req, res),
    routes: auth?.routes,
  });
  if (auth !== undefined && options.protect !== undefined) {
    await options.protect(url).then(auth.set, async (error: unknown) => {
      await sse.close();
      await closeHttp(server);
      throw error;
    });
  }
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
