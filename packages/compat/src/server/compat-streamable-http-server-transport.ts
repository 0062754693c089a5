import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore, JSONRPCMessage, Transport, TransportSendOptions } from '@x/protocol/core';
import type { Server as XServer, ServerSession } from '@x/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpServerTransport,
} from '@x/transport-streamable-http';
import { type NodeHandler, toNodeHandler } from '@x/transport-streamable-http/node';
import { ATTACH } from '../shared/inner.js';

/**
 * Options of the official 1.x `StreamableHTTPServerTransport`. `allowedHosts`/`allowedOrigins` apply
 * whether or not `enableDnsRebindingProtection` is set: x-mcp always guards a loopback server's
 * `Host` and every `Origin` (its default), and `enableDnsRebindingProtection: true` extends the Host
 * check to every address.
 *
 * @example
 * ```ts
 * new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
 * ```
 */
export interface StreamableHTTPServerTransportOptions {
  /** Makes session ids; `undefined` is stateless mode (every request stands alone). */
  sessionIdGenerator: (() => string) | undefined;
  onsessioninitialized?: ((sessionId: string) => void | Promise<void>) | undefined;
  onsessionclosed?: ((sessionId: string) => void | Promise<void>) | undefined;
  enableJsonResponse?: boolean | undefined;
  eventStore?: EventStore | undefined;
  allowedHosts?: string[] | undefined;
  allowedOrigins?: string[] | undefined;
  enableDnsRebindingProtection?: boolean | undefined;
  /** Milliseconds a client waits before reconnecting a closed SSE stream (the `retry:` field). */
  retryInterval?: number | undefined;
}

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
  readonly #options: StreamableHTTPServerTransportOptions;
  #handler: StreamableHttpHandler | undefined;
  #node: NodeHandler | undefined;
  #inner: StreamableHttpServerTransport | undefined;
  #closed = false;

  constructor(options: StreamableHTTPServerTransportOptions = { sessionIdGenerator: undefined }) {
    this.#options = options;
  }

  /** The session id, once the `initialize` request made one (stateful mode). */
  get sessionId(): string | undefined {
    return this.#inner?.sessionId;
  }

  /** Called by a compat `Server.connect`: builds x-mcp's handler, whose sessions that server serves. */
  async [ATTACH](server: XServer, onsession: (session: ServerSession) => void): Promise<void> {
    const options = this.#options;
    const stateful = options.sessionIdGenerator !== undefined;
    const guard = {
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    };
    this.#handler = createStreamableHttpHandler({
      sessions: stateful,
      ...(options.sessionIdGenerator === undefined ? {} : { sessionIdGenerator: options.sessionIdGenerator }),
      enableJsonResponse: options.enableJsonResponse,
      eventStore: options.eventStore,
      retryIntervalMs: options.retryInterval,
      dnsRebindingProtection: guard,
      onerror: (error) => this.onerror?.(error),
      onsession: async (inner) => {
        if (inner.era !== 'legacy') {
          // A 2026-07-28 request (an x-mcp client's `server/discover` probe): the 1.x server serves
          // the initialize era only and refuses it, and the client falls back to `initialize`. It is
          // not this transport's session.
          await server.connect(inner);
          return;
        }
        if (this.#inner !== undefined) {
          // 1.x: one session per transport instance. A second `initialize` sent to it gets no session.
          await inner.close();
          return;
        }
        this.#inner = inner;
        const session = await server.connect(inner);
        onsession(session);
        const sessionId = inner.sessionId;
        const previous = inner.onclose;
        inner.onclose = () => {
          previous?.();
          if (stateful && sessionId !== undefined) void options.onsessionclosed?.(sessionId);
          this.#finish();
        };
        if (stateful && sessionId !== undefined) await options.onsessioninitialized?.(sessionId);
      },
    });
    this.#node = toNodeHandler(this.#handler);
  }

  /** Starting is done by `connect`. */
  async start(): Promise<void> {}

  /**
   * Serves one HTTP request (POST, GET or DELETE). `parsedBody` is the body a parser already read
   * (Express `req.body`); without it the body is read from `req`.
   */
  async handleRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    const node = this.#node;
    if (node === undefined)
      throw new Error('StreamableHTTPServerTransport: connect a server before handleRequest');
    if (parsedBody !== undefined) (req as IncomingMessage & { body?: unknown }).body = parsedBody;
    await node(req, res);
  }

  /** Sends a message on the session (x-mcp's server sends through its own transport; this is for code that calls it directly). */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#inner === undefined) throw new Error('Not connected');
    await this.#inner.send(message, options);
  }

  /** Closes the session (or the request, stateless) and the handler. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#inner?.close();
    await this.#handler?.close();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
