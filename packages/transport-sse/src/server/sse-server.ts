import { ErrorCode, McpError, parseMessageOrBatch } from '@x/protocol/core';
import { randomUuid, renamedOption } from '@x/protocol/transport';
import type { AuthInfo, JSONRPCMessage, MessageExtraInfo } from '@x/protocol/core';
import {
  type CallerKey,
  type ConnectionInfo,
  Cors,
  type CorsOptions,
  createDnsRebindingGuard,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  type SessionContext,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
  defaultCallerKey,
  type DnsRebindingGuard,
  type DnsRebindingOptions,
  type HttpAuthenticate,
  type HttpIncoming,
  isJsonContentType,
  LazyResponse,
  PayloadTooLargeError,
  principalOf,
  RateLimiter,
  type RateLimiterOptions,
  TrustedProxies,
  type TrustedProxiesOption,
  toPlatformResponse,
  webIncoming,
} from '@x/protocol/http';
import { SessionStream } from './session-stream.js';
import { accepted, errorReply, invalidMessageReply, SSE_CORS, SSE_HEADERS } from './sse-responses.js';
import { SseServerTransport } from './sse-server-transport.js';
import type { SseSessionHandle } from './sse-server-transport.js';

/**
 * Default interval of keep-alive comments (15 s).
 *
 * @deprecated Use `DEFAULT_SSE_KEEP_ALIVE_MS` (the same value, shared with Streamable HTTP): this name
 * means the 30 s ping interval on the WebSocket and gRPC transports. This alias goes in the next minor
 * version.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, keepAliveMs: DEFAULT_SSE_KEEP_ALIVE_MS / 3 });
 * ```
 */
export const DEFAULT_KEEP_ALIVE_MS: number = DEFAULT_SSE_KEEP_ALIVE_MS;

/**
 * Default cap on open sessions (event streams) of one SSE handler: each holds a connection and ~20 KB.
 *
 * @deprecated Use `DEFAULT_MAX_CONNECTED_SESSIONS` from `@x/protocol/http` (the same value, shared with the
 * WebSocket server). This alias goes in the next minor version.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, maxSessions: 4 * DEFAULT_MAX_CONNECTED_SESSIONS });
 * ```
 */
export const DEFAULT_MAX_SESSIONS: number = DEFAULT_MAX_CONNECTED_SESSIONS;

/**
 * Default cap on the bytes one event stream may hold unsent (32 MiB, as Streamable HTTP).
 *
 * @deprecated Use `DEFAULT_MAX_STREAM_BUFFERED_BYTES` from `@x/protocol/http` (the same value, shared with
 * Streamable HTTP). This alias goes in the next minor version.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, maxBufferedBytes: 2 * DEFAULT_MAX_STREAM_BUFFERED_BYTES });
 * ```
 */
export const DEFAULT_MAX_BUFFERED_BYTES: number = DEFAULT_MAX_STREAM_BUFFERED_BYTES;

/**
 * What `onsession` learns about the GET that opened the session.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({
 *   onsession: async (transport, { request, authInfo }) => {
 *     console.log('SSE session from', request.headers.get('user-agent'), authInfo?.clientId ?? 'anonymous');
 *     await mcpServer.connect(transport);
 *   },
 * });
 * ```
 */
export type SseSessionContext = SessionContext;

/**
 * Options of `createSseHandler(options)`; only `onsession` is required.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({
 *   onsession: (transport) => mcpServer.connect(transport),
 *   endpoint: '/messages',
 *   dnsRebindingProtection: { allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] },
 *   authenticate,
 * });
 * ```
 */
export interface SseHandlerOptions {
  /**
   * Called with a new transport for every client that opens a stream; connect an MCP server to it.
   * The GET response is held until this settles, and a rejection answers the GET with 500.
   */
  onsession: (transport: SseServerTransport, context: SseSessionContext) => unknown;
  /**
   * Where clients POST messages, resolved against the GET URL (e.g. `'/messages'`). Default: the GET
   * URL's own path, so one route can serve both methods.
   */
  endpoint?: string | undefined;
  /**
   * The pathname of the event stream (e.g. `'/sse'`): a request to any path other than it and the
   * `endpoint` gets 404 with a JSON-RPC error body. Default: every path (mount the handler on a route of
   * your framework).
   */
  path?: string | undefined;
  /**
   * DNS-rebinding protection (403), the policy shared with Streamable HTTP and WebSocket (spec: servers
   * MUST validate Origin). On by default, on every address: a browser `Origin` must be a loopback page
   * (`http(s)://localhost|127.0.0.1|[::1]`, any port) or one you list in `allowedOrigins`; the `Host`
   * must be a loopback name when the server listens on loopback (or `allowedHosts` when given). `false`
   * turns it off (a proxy in front checks).
   *
   * @default true
   */
  dnsRebindingProtection?: DnsRebindingOptions | boolean | undefined;
  /**
   * CORS for browser pages on other origins (`true`: any origin): answers `OPTIONS` preflights and adds
   * `Access-Control-Allow-Origin` to every response for an allowed origin. Off by default. Browsers
   * also need their origin in `dnsRebindingProtection.allowedOrigins` unless it is a loopback one.
   *
   * @default false
   */
  cors?: CorsOptions | boolean | undefined;
  /**
   * Largest POST body, in bytes (413 above it). Default 4 MiB (`DEFAULT_MAX_MESSAGE_BYTES`).
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * Largest POST body, in bytes.
   *
   * @deprecated Use `maxMessageBytes`, the name of this limit on every transport; `maxMessageBytes`
   * wins when both are given. This alias goes in the next minor version.
   */
  maxBodyBytes?: number | undefined;
  /**
   * JSON nested deeper than this in a POST body is refused with -32700 before parsing. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Open sessions at most. A session is its event stream, so none is evicted: past the cap a new GET
   * gets 503 with `Retry-After` until one ends. Default `DEFAULT_MAX_CONNECTED_SESSIONS` (1000).
   *
   * @default {@link DEFAULT_MAX_CONNECTED_SESSIONS}
   */
  maxSessions?: number | undefined;
  /**
   * A session that carried no message either way for this long, with no request of the client
   * unanswered, is closed (its stream ends). 0 disables. Default 30 min.
   *
   * @default {@link DEFAULT_SESSION_IDLE_TIMEOUT_MS}
   */
  sessionIdleTimeoutMs?: number | undefined;
  /**
   * How fast one caller may open sessions: a token bucket per `callerKey` (by default its principal, see
   * `sessionPrincipal`, else its client address, see `trustedProxies`); past it a GET gets 429 with
   * `Retry-After`. `false` disables. Default 10/s, bursts of 50 (`DEFAULT_RATE_LIMIT`).
   *
   * @default {@link DEFAULT_RATE_LIMIT}
   */
  sessionRateLimit?: RateLimiterOptions | false | undefined;
  /**
   * The reverse proxies / load balancers in front of this server: exact addresses or CIDR ranges
   * (`['10.0.0.0/8', 'fd00::/8']`), or `{ addresses, header }` to read RFC 7239 `Forwarded` instead of
   * `X-Forwarded-For`. Only when the socket's peer is one of them is that header read, right to left,
   * skipping listed hops; a malformed one counts as absent. The address found keys the rate limit of an
   * anonymous caller. Default: none (the socket's peer is the client; forwarding headers are ignored).
   *
   * @default none
   */
  trustedProxies?: TrustedProxiesOption | undefined;
  /**
   * The `sessionRateLimit` bucket of a caller, from its principal, client address and headers (e.g. one
   * bucket per API key or tenant). Default `defaultCallerKey` of `@x/protocol/http`: the principal, else
   * the client address.
   */
  callerKey?: CallerKey | undefined;
  /**
   * The principal a session is bound to, from the `authenticate` hook's `AuthInfo`: POSTs to the session
   * must come from the same principal (403 otherwise), the rule of Streamable HTTP. Default `principalOf`
   * of `@x/protocol/http`: the `clientId` plus the user of `extra.sub` / `extra.subject` /
   * `extra.userId`, so two users of one app cannot post into each other's sessions. A session opened
   * without `AuthInfo` takes anonymous POSTs only.
   */
  sessionPrincipal?: ((auth: AuthInfo) => string | undefined) | undefined;
  /**
   * Unsent bytes one event stream may hold: a send that finds more ends the session (the client is not
   * reading) and reports it via the transport's `onerror`. Default 32 MiB (`DEFAULT_MAX_STREAM_BUFFERED_BYTES`).
   *
   * @default {@link DEFAULT_MAX_STREAM_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Interval of keep-alive comments on each stream; 0 disables them. Default 15 s.
   *
   * @default {@link DEFAULT_SSE_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * Most messages one JSON-RPC batch may hold (2025-03-26 sessions only; larger ones get 400 with
   * -32600). Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * Runs for every request. POSTs to a session must come from the principal of the GET that opened it
   * (see `sessionPrincipal`; 403 otherwise).
   */
  authenticate?: HttpAuthenticate | undefined;
  /**
   * Faults that belong to no session: `onsession` or `authenticate` threw. The client only gets a
   * generic 500; the cause is here.
   */
  onerror?: ((error: Error) => void) | undefined;
}

/** A session as the server tracks it: who opened it (its principal), so nobody else can post into it. */
interface Session extends SseSessionHandle {
  owner: string | undefined;
}

/**
 * The core behind `createSseHandler`: a GET opens a session's event stream, POSTs to the announced
 * endpoint carry the client's messages. Internal: users get the handler function.
 */
export class SseServer {
  #options: SseHandlerOptions;
  #guard: DnsRebindingGuard | undefined;
  readonly #cors: Cors | undefined;
  #maxBodyBytes: number;
  #keepAliveMs: number;
  readonly #maxSessions: number;
  readonly #idleTimeoutMs: number;
  readonly #maxBufferedBytes: number;
  readonly #parseOptions: { maxNestingDepth: number | undefined };
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #proxies: TrustedProxies | undefined;
  readonly #callerKey: CallerKey;
  readonly #principalOf: (auth: AuthInfo) => string | undefined;
  #sessions = new Map<string, Session>();
  #sweeper: ReturnType<typeof setInterval> | undefined;
  /** Forgets a disposed session: one function for all of them. */
  readonly #forget = (sessionId: string): void => {
    this.#sessions.delete(sessionId);
    if (this.#sessions.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  };
  #closed = false;
  /** The stream's path and the POST endpoint's, when `path` is set. */
  readonly #paths: readonly string[] | undefined;

  constructor(options: SseHandlerOptions) {
    this.#options = options;
    const path = options.path;
    this.#paths =
      path === undefined
        ? undefined
        : [path, new URL(options.endpoint ?? path, `http://localhost${path}`).pathname];
    const cors = options.cors;
    this.#cors =
      cors === undefined || cors === false ? undefined : new Cors(cors === true ? {} : cors, SSE_CORS);
    const protection = options.dnsRebindingProtection;
    this.#guard =
      protection === false
        ? undefined
        : createDnsRebindingGuard(typeof protection === 'object' ? protection : {});
    this.#maxBodyBytes =
      renamedOption(options, 'maxMessageBytes', 'maxBodyBytes', 'createSseHandler') ??
      DEFAULT_MAX_MESSAGE_BYTES;
    this.#keepAliveMs = options.keepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_CONNECTED_SESSIONS;
    this.#idleTimeoutMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_STREAM_BUFFERED_BYTES;
    this.#parseOptions = { maxNestingDepth: options.maxNestingDepth };
    this.#rateLimiter =
      options.sessionRateLimit === false ? undefined : new RateLimiter(options.sessionRateLimit ?? {});
    // Built up front so a bad entry fails at construction, naming the option.
    this.#proxies =
      options.trustedProxies === undefined ? undefined : new TrustedProxies(options.trustedProxies);
    this.#callerKey = options.callerKey ?? defaultCallerKey;
    this.#principalOf = options.sessionPrincipal ?? principalOf;
  }

  /** Number of open sessions (streams). */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The transport of an open session, e.g. to route messages that arrive by other means. */
  getSession(sessionId: string): SseServerTransport | undefined {
    return this.#sessions.get(sessionId)?.transport;
  }

  /**
   * Handles one HTTP request; bound, so it can be passed around. `info` tells what the
   * runtime knows of the connection (the caller's address keys its rate limit).
   */
  readonly handle = async (request: Request, info?: ConnectionInfo): Promise<Response> =>
    toPlatformResponse(await this.#serve(webIncoming(request, info)));

  /**
   * Handles one request a runtime adapter read itself (`toNodeHandler` of `@x/protocol/node`); bound.
   * The answer is a `LazyResponse` (unless an `authenticate` hook made its own), written to the socket
   * without a platform `Response`.
   */
  readonly handleIncoming = (incoming: HttpIncoming): Promise<Response> => this.#serve(incoming);

  /** Ends every stream (clients see their connection close) and refuses new requests with 503. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    const sessions = [...this.#sessions.values()];
    await Promise.all(sessions.map((session) => session.transport.close()));
  }

  /** The whole exchange, shared by `handle` and the `node:http` adapter's way in. */
  async #serve(incoming: HttpIncoming): Promise<Response> {
    const cors = this.#cors;
    if (cors === undefined) return this.#route(incoming);
    const paths = this.#paths;
    if (incoming.method === 'OPTIONS' && (paths === undefined || paths.includes(incoming.url.pathname))) {
      // Preflights carry no credentials and no body: answered before the Origin guard, like Streamable HTTP.
      return cors.preflight(incoming);
    }
    return cors.apply(incoming, await this.#route(incoming));
  }

  async #route(incoming: HttpIncoming): Promise<Response> {
    const paths = this.#paths;
    if (paths !== undefined && !paths.includes(incoming.url.pathname)) {
      return errorReply(404, ErrorCode.InvalidRequest, `Not Found: the SSE endpoint is ${paths[0]}`);
    }
    if (this.#closed) return errorReply(503, ErrorCode.ConnectionClosed, 'Server is shutting down');
    // The guard reads only `headers.get` and `url`, which every HttpIncoming has.
    const rejection = this.#guard?.(incoming, incoming.localAddress);
    if (rejection !== undefined) return errorReply(403, ErrorCode.InvalidRequest, rejection);
    if (incoming.method !== 'GET' && incoming.method !== 'POST') {
      return errorReply(405, ErrorCode.InvalidRequest, 'Method not allowed', { allow: 'GET, POST' });
    }

    let authInfo: AuthInfo | undefined;
    if (this.#options.authenticate !== undefined) {
      let result: AuthInfo | Response | undefined;
      try {
        result = await this.#options.authenticate(incoming.toRequest());
      } catch (cause) {
        // The hook's own failure (e.g. the token service is down) is for the operator, not the client.
        this.#report('authenticate failed', cause);
        return errorReply(500, ErrorCode.InternalError, 'Authentication failed');
      }
      if (result instanceof Response) return result;
      authInfo = result;
    }
    return incoming.method === 'GET'
      ? this.#openStream(incoming, authInfo)
      : this.#receive(incoming, authInfo);
  }

  async #openStream(incoming: HttpIncoming, authInfo: AuthInfo | undefined): Promise<LazyResponse> {
    const principal = authInfo === undefined ? undefined : this.#principalOf(authInfo);
    const limiter = this.#rateLimiter;
    if (limiter !== undefined) {
      const waitMs = limiter.take(
        this.#callerKey({
          authInfo,
          principal,
          peerAddress: incoming.remoteAddress,
          clientAddress: this.#clientAddress(incoming),
          headers: incoming.headers,
        }),
      );
      if (waitMs > 0) {
        return errorReply(
          429,
          ErrorCode.InvalidRequest,
          `Too many new sessions from this client: over sessionRateLimit (${limiter.perSecond}/s, burst ${limiter.burst})`,
          { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        );
      }
    }
    if (this.#sessions.size >= this.#maxSessions) {
      // A session is its open stream: none can be evicted without cutting a client off.
      return errorReply(
        503,
        ErrorCode.InvalidRequest,
        `Too many open SSE sessions: maxSessions (${this.#maxSessions}) reached; retry later`,
        { 'retry-after': '5' },
      );
    }
    const sessionId = randomUuid();
    const base = incoming.url;
    const target = new URL(this.#options.endpoint ?? base.pathname, base);
    target.searchParams.set('sessionId', sessionId);
    // Relative when same-origin, so the endpoint stays right behind proxies that rewrite the host.
    const endpoint = target.origin === base.origin ? target.pathname + target.search : target.href;

    const stream = new SessionStream();
    const session: Session = {
      ...SseServerTransport.open(
        {
          sessionId,
          endpoint,
          keepAliveMs: this.#keepAliveMs,
          onDispose: this.#forget,
          maxBatchSize: this.#options.maxBatchSize,
          maxBufferedBytes: this.#maxBufferedBytes,
        },
        stream,
      ),
      owner: principal,
    };
    this.#sessions.set(sessionId, session);
    this.#startSweeper();
    incoming.onDisconnect(session.disconnect);

    // A getter: under the node adapter the `Request` is only built when `onsession` reads it.
    const context: SseSessionContext = {
      get request() {
        return incoming.toRequest();
      },
      authInfo,
      clientAddress: this.#clientAddress(incoming),
    };
    try {
      await this.#options.onsession(session.transport, context);
    } catch (cause) {
      session.disconnect();
      this.#report('onsession failed', cause);
      return errorReply(500, ErrorCode.InternalError, 'Session setup failed');
    }
    return new LazyResponse(200, Object.assign({}, SSE_HEADERS), stream);
  }

  /** One timer for all sessions, running only while there are some, that closes the idle ones. */
  #startSweeper(): void {
    const ttl = this.#idleTimeoutMs;
    if (this.#sweeper !== undefined || !(ttl > 0)) return;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(ttl / 4, 60_000)));
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#idleTimeoutMs;
    for (const session of this.#sessions.values()) {
      const since = session.idleSince();
      // Busy (a request of the client unanswered) or recently used: kept.
      if (since !== undefined && since <= cutoff) void session.transport.close();
    }
  }

  async #receive(incoming: HttpIncoming, authInfo: AuthInfo | undefined): Promise<LazyResponse> {
    const url = incoming.url;
    const sessionId = url.searchParams.get('sessionId');
    if (sessionId === null) return errorReply(400, ErrorCode.InvalidRequest, 'Missing sessionId');
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return errorReply(404, ErrorCode.InvalidRequest, 'Session not found');
    // A session takes messages from the principal that opened it only (an anonymous one from anonymous
    // callers only): knowing the session id (it appears in URLs and logs) must not be enough to speak
    // in someone else's session, nor is being another user of the same OAuth app.
    const principal = authInfo === undefined ? undefined : this.#principalOf(authInfo);
    if (principal !== session.owner) {
      return errorReply(403, ErrorCode.InvalidRequest, 'Session belongs to another principal');
    }
    if (!isJsonContentType(incoming.headers.get('content-type'))) {
      return errorReply(415, ErrorCode.InvalidRequest, 'Content-Type must be application/json');
    }

    let message: JSONRPCMessage | unknown[];
    try {
      message = parseMessageOrBatch(await incoming.readText(this.#maxBodyBytes), this.#parseOptions);
    } catch (error) {
      return this.#rejectBody(error);
    }
    const extra: MessageExtraInfo = {
      requestInfo: {
        method: incoming.method,
        url,
        headers: incoming.headerRecord(),
        clientAddress: this.#clientAddress(incoming),
      },
      authInfo,
    };
    if (Array.isArray(message)) {
      // A JSON-RPC batch, on a session that negotiated 2025-03-26 only; its answers come as one event.
      const refused = session.deliverBatch(message, extra);
      if (refused !== undefined) return errorReply(400, refused.error.code, refused.error.message);
    } else {
      session.deliver(message, extra);
    }
    return accepted();
  }

  /** The caller's address: the peer, or behind `trustedProxies` the client they name. */
  #clientAddress(incoming: HttpIncoming): string | undefined {
    const proxies = this.#proxies;
    const peer = incoming.remoteAddress;
    return proxies === undefined ? peer : proxies.clientAddress(peer, incoming.headers);
  }

  #report(context: string, cause: unknown): void {
    this.#options.onerror?.(new Error(`SSE handler: ${context}`, { cause }));
  }

  #rejectBody(error: unknown): LazyResponse {
    if (error instanceof PayloadTooLargeError)
      return errorReply(413, ErrorCode.InvalidRequest, `${error.message} (maxMessageBytes)`);
    if (error instanceof McpError) return invalidMessageReply(error);
    // TextDecoder's fatal mode throws TypeError for bytes that are not UTF-8: not parseable JSON either.
    if (error instanceof TypeError) return errorReply(400, ErrorCode.ParseError, 'Body is not UTF-8');
    return errorReply(400, ErrorCode.ParseError, 'Could not read the request body');
  }
}
