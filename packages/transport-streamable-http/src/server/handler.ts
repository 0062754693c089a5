import {
  assertWebRequest,
  type ConnectionInfo,
  type HttpIncoming,
  type IncomingHandler,
  toPlatformResponse,
  webIncoming,
} from '@x/protocol/http';
import { type DrainOptions, StreamableHttpEndpoint } from './endpoint.js';
import type { StreamableHttpHandlerOptions } from './options.js';

export type { DrainOptions };

/**
 * A Web-standard MCP endpoint: `(request) => Promise<Response>` for Node (through `toNodeHandler`),
 * Bun, Deno and Workers, plus `close()` for graceful shutdown.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * export default { fetch: (request: Request) => handler(request) }; // Workers, Bun, Deno
 * // On shutdown:
 * console.log(`closing ${handler.sessionCount} sessions`);
 * await handler.close();
 * ```
 */
export interface StreamableHttpHandler extends IncomingHandler {
  (request: Request, info?: ConnectionInfo): Promise<Response>;
  /**
   * The same exchange for a runtime adapter that reads the request itself (`toNodeHandler` of
   * `@x/protocol/node`): the answer is a `LazyResponse`, written to the socket without a platform
   * `Response`.
   */
  handleIncoming(incoming: HttpIncoming): Promise<Response>;
  /** Ends every stream and session and refuses further requests (503). */
  close(): Promise<void>;
  /**
   * Graceful shutdown behind a load balancer: refuses new work with 503 and `Retry-After` (with a shared
   * `sessionStore`, every request, since any process serves any session; without one, requests that
   * start a session or carry none), ends the GET streams so clients resume them elsewhere with
   * `Last-Event-ID`, waits for the requests in flight (at most `timeoutMs`, default 30 000), then
   * `close()`s.
   */
  drain(options?: DrainOptions): Promise<void>;
  /** True once `drain()` was called. */
  readonly draining: boolean;
  /** Live legacy sessions. */
  readonly sessionCount: number;
}

/**
 * Creates the MCP endpoint for both eras (legacy 2025-03-26 … 2025-11-25 with sessions, and modern
 * 2026-07-28, stateless). Every new transport goes to `onsession`; connect it to your server there.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: (transport) => server.connect(transport),
 * });
 * Bun.serve({ port: 3000, fetch: (request) => handler(request) });
 * // node:http (`toNodeHandler` from './node'): createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * ```
 */
export function createStreamableHttpHandler(options: StreamableHttpHandlerOptions): StreamableHttpHandler {
  const endpoint = new StreamableHttpEndpoint(options);
  const handleIncoming = endpoint.handleIncoming;
  const handler = async (request: Request, info?: ConnectionInfo): Promise<Response> => {
    // `http.createServer(handler)` passes Node's (req, res): refuse it loudly instead of hanging.
    assertWebRequest(request, info, '@x/transport-streamable-http/node');
    return toPlatformResponse(await handleIncoming(webIncoming(request, info)));
  };
  return Object.defineProperties(handler, {
    // The node:http adapter's way in: no Web Request, and bodies it writes straight to the socket.
    handleIncoming: { value: handleIncoming },
    close: { value: () => endpoint.close() },
    drain: { value: (drainOptions?: DrainOptions) => endpoint.drain(drainOptions) },
    draining: { get: () => endpoint.draining },
    sessionCount: { get: () => endpoint.sessionCount },
  }) as StreamableHttpHandler;
}
