import { randomUUID } from 'node:crypto';
import type { AuthInfo } from '@x/protocol';
import type { EventStore, JSONRPCMessage, TransportSendOptions } from '@x/protocol/core';
import type { Server as XServer, ServerSession } from '@x/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpServerTransport,
} from '@x/transport-streamable-http';

/**
 * Options of the official 1.x Streamable HTTP server transports (`StreamableHTTPServerTransport` and
 * `WebStandardStreamableHTTPServerTransport`). `allowedHosts`/`allowedOrigins` apply whether or not
 * `enableDnsRebindingProtection` is set: x-mcp always guards a loopback server's `Host` and every
 * `Origin` (its default).
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
  /** Milliseconds between keep-alive comments on a GET stream; below 1: none. Default 15 000. */
  keepAliveMs?: number | undefined;
  /** Largest POST body in bytes (a larger one is refused 413). Default 4 MiB. */
  maxRequestBodySize?: number | undefined;
}

/**
 * The header that carries a request's key into x-mcp's `authenticate` hook, where the `AuthInfo` the
 * application handed `handleRequest` (1.x: `req.auth`, `{ authInfo }`) is looked up. Its value is a
 * fresh random key per request, set by this package only: a client's own is removed first.
 */
export const AUTH_REF_HEADER = 'x-compat-auth-ref';

/** What a binding reports to the transport that holds it. */
export interface HttpSessionEvents {
  onerror(error: Error): void;
  /** The session (or the stateless request) ended, or the transport was closed. Called once. */
  onclose(): void;
}

/**
 * The part both 1.x Streamable HTTP transports share: x-mcp's Web-standard handler built from 1.x
 * options for the server a compat `Server` attaches, 1.x's rule of one session per transport instance
 * (one request, stateless), and the `AuthInfo` an application hands over per request. The Node
 * transport puts x-mcp's Node adapter in front of the handler; the Web-standard one calls it with the
 * `Request`.
 */
export class HttpSessionBinding {
  readonly #options: StreamableHTTPServerTransportOptions;
  readonly #events: HttpSessionEvents;
  #handler: StreamableHttpHandler | undefined;
  #inner: StreamableHttpServerTransport | undefined;
  #closed = false;
  readonly #pendingAuth = new Map<string, AuthInfo>();
  #server: { server: XServer; onsession: (session: ServerSession) => void } | undefined;

  constructor(options: StreamableHTTPServerTransportOptions, events: HttpSessionEvents) {
    this.#options = options;
    this.#events = events;
  }

  /** The session id, once the `initialize` request made one (stateful mode). */
  get sessionId(): string | undefined {
    return this.#inner?.sessionId;
  }

  /** Called by a compat `Server.connect`: the server whose sessions the handler will serve. */
  attach(server: XServer, onsession: (session: ServerSession) => void): void {
    this.#server = { server, onsession };
  }

  /**
   * x-mcp's handler, built at the first request: with an `authenticate` hook when that request came
   * authenticated (`auth`), else without one (the hook makes x-mcp build a Web `Request` per request,
   * which an unauthenticated server should not pay for). x-mcp binds a session to the principal that
   * opened it, so an anonymous session never needs the hook later.
   */
  handlerFor(auth: AuthInfo | undefined): StreamableHttpHandler {
    if (this.#handler !== undefined) return this.#handler;
    const attached = this.#server;
    if (attached === undefined) throw new Error('connect a server before handleRequest');
    this.#handler = this.#create(attached.server, attached.onsession, auth !== undefined);
    return this.#handler;
  }

  #create(
    server: XServer,
    onsession: (session: ServerSession) => void,
    authenticated: boolean,
  ): StreamableHttpHandler {
    const options = this.#options;
    const stateful = options.sessionIdGenerator !== undefined;
    const authenticate = (request: Request) => {
      const ref = request.headers.get(AUTH_REF_HEADER);
      return ref === null ? undefined : this.#pendingAuth.get(ref);
    };
    return createStreamableHttpHandler({
      sessions: stateful,
      ...(options.sessionIdGenerator === undefined ? {} : { sessionIdGenerator: options.sessionIdGenerator }),
      enableJsonResponse: options.enableJsonResponse,
      eventStore: options.eventStore,
      retryIntervalMs: options.retryInterval,
      ...(options.keepAliveMs === undefined
        ? {}
        : { keepAliveMs: options.keepAliveMs < 1 ? 0 : options.keepAliveMs }),
      maxMessageBytes: options.maxRequestBodySize,
      dnsRebindingProtection: {
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
        ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
      },
      ...(authenticated ? { authenticate } : {}),
      onerror: (error) => this.#events.onerror(error),
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
        onsession(await server.connect(inner));
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
  }

  /**
   * Runs one request with the `AuthInfo` the application authenticated it as (1.x hands it to the
   * handlers as `extra.authInfo`): `mark` puts the request's key on its headers (and removes a client's
   * own), x-mcp's `authenticate` hook finds the `AuthInfo` under it.
   */
  async withAuth<T>(
    auth: AuthInfo | undefined,
    mark: (ref: string | undefined) => T | Promise<T>,
  ): Promise<T> {
    if (auth === undefined) return mark(undefined);
    const ref = randomUUID();
    this.#pendingAuth.set(ref, auth);
    try {
      return await mark(ref);
    } finally {
      this.#pendingAuth.delete(ref);
    }
  }

  /** Sends a message on the session (for code that calls the 1.x transport's `send` directly). */
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
    this.#events.onclose();
  }
}
