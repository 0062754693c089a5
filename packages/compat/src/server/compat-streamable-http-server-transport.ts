import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@x/protocol';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@x/protocol/core';
import type { Server as XServer, ServerSession } from '@x/server';
import { type NodeHandler, toNodeHandler } from '@x/transport-streamable-http/node';
import { ATTACH } from '../shared/inner.js';
import {
  AUTH_REF_HEADER,
  HttpSessionBinding,
  type StreamableHTTPServerTransportOptions,
} from './http-session-binding.js';

export type { StreamableHTTPServerTransportOptions } from './http-session-binding.js';

/**
 * The official 1.x `StreamableHTTPServerTransport` (`server/streamableHttp.js`) on x-mcp's Streamable
 * HTTP handler: `handleRequest(req, res, parsedBody?)` on Node's `http` and Express. Connect it with a
 * compat `Server`/`McpServer` (which hands it the x-mcp server); one session per instance, as 1.x, or
 * one request per instance in stateless mode. Its own `send`/`onmessage` are not used by x-mcp's
 * handler (the session is x-mcp's transport); `send` forwards to it.
 *
 * @example
 * ```ts
 * const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
 * await server.connect(transport);
 * app.post('/mcp', (req, res) => transport.handleRequest(req, res, req.body));
 * ```
 */
export class StreamableHTTPServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #binding: HttpSessionBinding;
  #node: NodeHandler | undefined;
  #attached = false;

  constructor(options: StreamableHTTPServerTransportOptions = { sessionIdGenerator: undefined }) {
    this.#binding = new HttpSessionBinding(options, {
      onerror: (error) => this.onerror?.(error),
      onclose: () => this.onclose?.(),
    });
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

  /**
   * Serves one HTTP request (POST, GET or DELETE). `parsedBody` is the body a parser already read
   * (Express `req.body`); without it the body is read from `req`. `req.auth`, set by an authentication
   * middleware, reaches the handlers as `extra.authInfo` (as 1.x).
   */
  async handleRequest(
    req: IncomingMessage & { auth?: AuthInfo | undefined },
    res: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    if (!this.#attached)
      throw new Error('StreamableHTTPServerTransport: connect a server before handleRequest');
    this.#node ??= toNodeHandler(this.#binding.handlerFor(req.auth));
    const node = this.#node;
    if (parsedBody !== undefined) (req as IncomingMessage & { body?: unknown }).body = parsedBody;
    await this.#binding.withAuth(req.auth, (ref) => {
      delete req.headers[AUTH_REF_HEADER];
      if (ref !== undefined) req.headers[AUTH_REF_HEADER] = ref;
      return node(req, res);
    });
  }

  /** Sends a message on the session (x-mcp's server sends through its own transport; this is for code that calls it directly). */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#binding.send(message, options);
  }

  /** Closes the session (or the request, stateless) and the handler. */
  close(): Promise<void> {
    return this.#binding.close();
  }
}
