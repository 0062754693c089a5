import type { McpServer as XMcpServer } from '@x/server';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '@x/transport-streamable-http';
import { type McpServer, xServerOf } from './mcp-server.js';

/** What a 2.x server factory is told; x-mcp calls the factory once, for every era (see `createMcpHandler`). */
export interface McpRequestContext {
  era: 'legacy' | 'modern';
}

/** Makes the server a handler serves (2.x: one per request; here: once, for all of them). */
export type McpServerFactory = (ctx: McpRequestContext) => McpServer | Promise<McpServer>;

/** Options of `createMcpHandler`. */
export interface CreateMcpHandlerOptions {
  /** `'stateless'` (default). `'reject'` is not provided: it throws `TypeError`. */
  legacy?: 'stateless' | 'reject' | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** `'json'` answers with one JSON body; `'auto'` (default) and `'sse'` stream when there is something to stream. */
  responseMode?: 'auto' | 'sse' | 'json' | undefined;
  keepAliveMs?: number | undefined;
  maxRequestBodySize?: number | undefined;
}

/** The handler `createMcpHandler` returns: the Web-standard `fetch` and `close`. */
export interface McpHttpHandler {
  fetch: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
}

const X_HANDLERS = new WeakMap<McpHttpHandler, StreamableHttpHandler>();

/** The x-mcp handler behind a `createMcpHandler` result (for `toNodeHandler`), if it is one. */
export function xHandlerOf(handler: object): StreamableHttpHandler | undefined {
  return X_HANDLERS.get(handler as McpHttpHandler);
}

/**
 * The 2.x `createMcpHandler` on x-mcp's Streamable HTTP handler: 2026-07-28 requests and the
 * `initialize` era (stateless, as 2.x's default) on one endpoint. The factory is called once, on the
 * first request, and its server serves every request after (x-mcp serves many connections from one
 * server definition); 2.x calls it per request.
 *
 * @example
 * ```ts
 * const handler = createMcpHandler(() => {
 *   const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *   server.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
 *   return server;
 * });
 * createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * ```
 */
export function createMcpHandler(
  factory: McpServerFactory,
  options: CreateMcpHandlerOptions = {},
): McpHttpHandler {
  if (options.legacy === 'reject') {
    throw new TypeError(
      "@x/compat: createMcpHandler's legacy: 'reject' is not provided (see the @x/compat README)",
    );
  }
  let server: Promise<XMcpServer> | undefined;
  const serverOnce = () => {
    server ??= Promise.resolve(factory({ era: 'modern' })).then(xServerOf);
    return server;
  };
  const x = createStreamableHttpHandler({
    sessions: false,
    onsession: async (transport) => (await serverOnce()).connect(transport),
    enableJsonResponse: options.responseMode === 'json',
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    ...(options.maxRequestBodySize === undefined ? {} : { maxMessageBytes: options.maxRequestBodySize }),
    ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
  });
  const handler: McpHttpHandler = {
    fetch: (request) => x(request),
    close: () => x.close(),
  };
  X_HANDLERS.set(handler, x);
  return handler;
}
