import {
  assertWebRequest,
  type ConnectionInfo,
  type HttpIncoming,
  type IncomingHandler,
} from '@x/protocol/http';
import { type SseHandlerOptions, SseServer } from './sse-server.js';
import type { SseServerTransport } from './sse-server-transport.js';

/**
 * The legacy HTTP+SSE endpoint (2024-11-05) as a Web-standard handler `(request, info?) => Promise<Response>`,
 * plus `close()` for graceful shutdown: the same shape as `createStreamableHttpHandler`.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * Deno.serve((request) => sse(request));
 * // On shutdown:
 * console.log(`closing ${sse.sessionCount} sessions`);
 * await sse.close();
 * ```
 */
export interface SseHandler extends IncomingHandler {
  (request: Request, info?: ConnectionInfo): Promise<Response>;
  /**
   * The same exchange for a runtime adapter that reads the request itself (`toNodeHandler` of
   * `@x/protocol/node`): the answer is a `LazyResponse`, written to the socket without a platform
   * `Response`.
   */
  handleIncoming(incoming: HttpIncoming): Promise<Response>;
  /** Ends every stream (clients see their connection close) and refuses new requests with 503. */
  close(): Promise<void>;
  /** Open sessions (event streams). */
  readonly sessionCount: number;
  /** The transport of an open session, e.g. to route messages that arrive by other means. */
  getSession(sessionId: string): SseServerTransport | undefined;
}

/**
 * Creates the server side of the legacy HTTP+SSE transport (2024-11-05): a GET opens a session's event
 * stream (its first event names the POST endpoint), POSTs there carry the client's messages. Every new
 * session's transport goes to `onsession`; connect your MCP server to it. Runs wherever
 * `Request`/`Response` do: Node through `toNodeHandler` of `@x/transport-sse/node`, Bun, Deno, Workers.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({
 *   onsession: async (transport) => {
 *     const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *     await server.connect(transport);
 *   },
 * });
 * Bun.serve({ port: 3000, fetch: (request) => sse(request) });
 * // node:http: createServer(toNodeHandler(sse)).listen(3000, '127.0.0.1');
 * ```
 */
export function createSseHandler(options: SseHandlerOptions): SseHandler {
  const core = new SseServer(options);
  const handler = async (request: Request, info?: ConnectionInfo): Promise<Response> => {
    // `http.createServer(handler)` passes Node's (req, res): refuse it loudly instead of hanging.
    assertWebRequest(request, info, '@x/transport-sse/node');
    return core.handle(request, info);
  };
  return Object.defineProperties(handler, {
    // The node:http adapter's way in: no Web Request, and a stream it writes straight to the socket.
    handleIncoming: { value: core.handleIncoming },
    close: { value: () => core.close() },
    sessionCount: { get: () => core.sessionCount },
    getSession: { value: (sessionId: string) => core.getSession(sessionId) },
  }) as SseHandler;
}
