import type { AuthInfo } from '@x/protocol';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@x/protocol/core';
import type { Server as XServer, ServerSession } from '@x/server';
import { ATTACH } from '../shared/inner.js';
import {
  AUTH_REF_HEADER,
  HttpSessionBinding,
  type StreamableHTTPServerTransportOptions,
} from './http-session-binding.js';

/**
 * Options of the official 1.x `WebStandardStreamableHTTPServerTransport`: those of
 * `StreamableHTTPServerTransport`, every one optional (no `sessionIdGenerator`: stateless).
 */
export type WebStandardStreamableHTTPServerTransportOptions = Partial<StreamableHTTPServerTransportOptions>;

/** The second argument of `handleRequest`. */
export interface HandleRequestOptions {
  /** The body a middleware already parsed; the request's own body is then not read. */
  parsedBody?: unknown;
  /** Who an authentication middleware found the request is from: the handlers' `extra.authInfo`. */
  authInfo?: AuthInfo | undefined;
}

/**
 * The official 1.x `WebStandardStreamableHTTPServerTransport` (`server/webStandardStreamableHttp.js`)
 * on x-mcp's Web-standard Streamable HTTP handler: `handleRequest(request)` takes a Fetch `Request`
 * and resolves with a `Response`, for Hono, Cloudflare Workers, Deno, Bun. Connect it with a compat
 * `Server`/`McpServer`; one session per instance, as 1.x, or one request per instance without a
 * `sessionIdGenerator` (stateless).
 *
 * @example
 * ```ts
 * app.all('/mcp', async (c) => {
 *   const transport = new WebStandardStreamableHTTPServerTransport();
 *   await createServer().connect(transport);
 *   return transport.handleRequest(c.req.raw);
 * });
 * ```
 */
export class WebStandardStreamableHTTPServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #binding: HttpSessionBinding;
  #attached = false;

  constructor(options: WebStandardStreamableHTTPServerTransportOptions = {}) {
    this.#binding = new HttpSessionBinding(
      { ...options, sessionIdGenerator: options.sessionIdGenerator },
      { onerror: (error) => this.onerror?.(error), onclose: () => this.onclose?.() },
    );
  }

  /** The session id, once the `initialize` request made one (stateful mode). */
  get sessionId(): string | undefined {
    return this.#binding.sessionId;
  }

  /** Called by a compat `Server.connect`: builds x-mcp's handler, whose sessions that server serves. */
  async [ATTACH](server: XServer, onsession: (session: ServerSession) => void): Promise<void> {
    this.#binding.attach(server, onsession);
    this.#attached = true;
  }

  /** Starting is done by `connect`. */
  async start(): Promise<void> {}

  /** Serves one HTTP request (POST, GET or DELETE) and resolves with its response (an SSE stream or JSON). */
  async handleRequest(request: Request, options: HandleRequestOptions = {}): Promise<Response> {
    if (!this.#attached)
      throw new Error('WebStandardStreamableHTTPServerTransport: connect a server before handleRequest');
    const handler = this.#binding.handlerFor(options.authInfo);
    return this.#binding.withAuth(options.authInfo, (ref) => {
      const headers = new Headers(request.headers);
      headers.delete(AUTH_REF_HEADER);
      if (ref !== undefined) headers.set(AUTH_REF_HEADER, ref);
      // A body a middleware consumed is given again from `parsedBody`.
      const body = options.parsedBody === undefined ? {} : { body: JSON.stringify(options.parsedBody) };
      return handler(new Request(request, { headers, ...body }));
    });
  }

  /** Sends a message on the session (for code that calls it directly). */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#binding.send(message, options);
  }

  /** Closes the session (or the request, stateless) and the handler. */
  close(): Promise<void> {
    return this.#binding.close();
  }
}
