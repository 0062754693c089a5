import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type AuthInfo, ErrorCode } from '@x/protocol/core';
import {
  type CallerKey,
  createDnsRebindingGuard,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  type SessionContext,
  defaultCallerKey,
  type DnsRebindingGuard,
  type DnsRebindingOptions,
  type GuardedRequest,
  type HttpAuthenticate,
  jsonRpcErrorText,
  principalOf,
  RateLimiter,
  type RateLimiterOptions,
  TrustedProxies,
  type TrustedProxiesOption,
} from '@x/protocol/http';
import { type WebSocket, WebSocketServer } from 'ws';
import { CloseCode, DEFAULT_MAX_MESSAGE_BYTES, MCP_SUBPROTOCOL } from './constants.js';
import { onTransportClosed, WebSocketServerTransport } from './server-transport.js';

/**
 * What `onsession` learns about the upgrade that opened the connection.
 *
 * @example
 * ```ts
 * const ws = createWebSocketHandler({
 *   server: httpServer,
 *   onsession: (transport, { request }) => {
 *     console.log('WebSocket session from', request.socket.remoteAddress);
 *     return mcpServer.connect(transport);
 *   },
 * });
 * ```
 */
export type WebSocketSessionContext = SessionContext<IncomingMessage>;

/**
 * Options of `createWebSocketHandler(options)`, which attaches to an existing HTTP server.
 *
 * @example
 * ```ts
 * const httpServer = createServer().listen(8080, '127.0.0.1');
 * const ws = createWebSocketHandler({
 *   server: httpServer,
 *   path: '/mcp',
 *   dnsRebindingProtection: { allowedOrigins: ['https://app.example.com'] },
 *   onsession: (transport) => mcpServer.connect(transport),
 *   onerror: (error) => console.error('ws:', error),
 * });
 * ```
 */
export interface WebSocketHandlerOptions {
  /**
   * Called once per accepted connection (one connection is one session) with its own transport, not yet
   * started: connect your MCP server to it. A throw or rejection closes that connection (1011) and
   * reaches `onerror`.
   */
  onsession: (transport: WebSocketServerTransport, context: WebSocketSessionContext) => unknown;
  /**
   * An existing `node:http`/`node:https` server to attach to (its `upgrade` event). Omit it to call
   * `handleUpgrade` yourself, or use `listenWebSocket()`.
   */
  server?: Server | undefined;
  /**
   * Only upgrades to this exact pathname are handled (e.g. `'/mcp'`). Others are left to the server's
   * other `upgrade` listeners, or refused with 404 when there are none. Default: every path.
   */
  path?: string | undefined;
  /**
   * DNS-rebinding protection of the upgrade (403), the policy shared with Streamable HTTP and legacy SSE
   * (`createDnsRebindingGuard` of `@x/protocol/http`). On by default, on every address: a browser
   * `Origin` must be a loopback page (`http(s)://localhost|127.0.0.1|[::1]`, any port) or listed in
   * `allowedOrigins` (`'*'`: any); the `Host` must be a loopback name when the connection arrives on
   * loopback (or one of `allowedHosts` when given). `false` turns it off.
   *
   * @default true
   */
  dnsRebindingProtection?: DnsRebindingOptions | boolean | undefined;
  /**
   * Largest incoming message in bytes; a bigger one closes the connection with 1009. Default 4 MiB.
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * JSON nested deeper than this is answered with -32700 before it is parsed. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Open sessions (connections) at most; past it an upgrade is refused with 503 and `Retry-After` (no
   * connection is evicted). Default `DEFAULT_MAX_CONNECTED_SESSIONS` (1000).
   *
   * @default {@link DEFAULT_MAX_CONNECTED_SESSIONS}
   */
  maxSessions?: number | undefined;
  /**
   * How fast one caller may open connections: a token bucket per `callerKey` (by default its principal,
   * `principalOf` of the `authenticate` hook's `AuthInfo`, else its client address, see
   * `trustedProxies`); past it an upgrade is refused with 429 and `Retry-After`. `false` disables.
   * Default 10/s, bursts of 50 (`DEFAULT_RATE_LIMIT`).
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
   * The `sessionRateLimit` bucket of a caller, from its principal, client address and upgrade headers
   * (e.g. one bucket per API key or tenant). Default `defaultCallerKey` of `@x/protocol/http`: the
   * principal, else the client address.
   */
  callerKey?: CallerKey | undefined;
  /**
   * Keep-alive (ping) period per connection; a peer silent for a whole period after a ping is dropped.
   * 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * Unsent bytes a connection's socket may hold; further messages wait for it to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes of messages waiting per connection; past it the peer is dropped with 1008. Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long a connection's messages may wait without one leaving; then 1008. 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * Most messages one 2025-03-26 batch may hold; larger ones are refused with -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * Authenticates the upgrade request before any WebSocket exists, the same hook as the Streamable HTTP
   * and SSE handlers' `authenticate` (e.g. `bearerAuth(...)` of `@x/auth`): return the caller's
   * `AuthInfo` (every message of the connection then carries it as `extra.authInfo`), `undefined` for
   * an anonymous caller, or a `Response` (401/403 with `WWW-Authenticate`) that is written to the socket
   * as the answer to the upgrade. A throw refuses the upgrade with 500 and reaches `onerror`. The
   * `Request` it gets has the upgrade's method (GET), headers and URL (`http://<Host><path>`).
   */
  authenticate?: HttpAuthenticate | undefined;
  /** Faults outside any one transport (a failing `onsession`, a refused upgrade's socket error). */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * Options of `listenWebSocket(options)`, which starts an HTTP server of its own.
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({
 *   port: 0, // any free port
 *   onsession: (transport) => mcpServer.connect(transport),
 * });
 * console.log(ws.url); // e.g. ws://127.0.0.1:41234/
 * ```
 */
export interface WebSocketListenOptions extends Omit<WebSocketHandlerOptions, 'server'> {
  /** Port for the listener's own HTTP server; 0 picks a free one. */
  port: number;
  /**
   * Interface to bind. Default `'127.0.0.1'`: loopback unless you say otherwise.
   *
   * @default '127.0.0.1'
   */
  host?: string | undefined;
}

/**
 * Accepts MCP WebSocket connections (subprotocol `mcp`, SEP-1288) and hands each one to `onsession`
 * as its own `WebSocketServerTransport`, so one MCP server object serves many connections.
 *
 * The upgrade is refused before any WebSocket exists, with a JSON-RPC error body, when the client does
 * not offer `mcp` (400), the Host/Origin is not allowed (403), the caller opens connections too fast
 * (429) or `maxSessions` are open (503); then `authenticate`, when given, may answer it (401/403).
 * `close()` ends every connection with 1001 (going away).
 *
 * @example
 * ```ts
 * // Attached to an existing HTTP server:
 * const ws = createWebSocketHandler({
 *   server: httpServer,
 *   path: '/mcp',
 *   onsession: (transport) => mcpServer.connect(transport),
 * });
 *
 * // Standalone, on its own port:
 * const standalone = await listenWebSocket({ port: 8080, onsession: (t) => mcpServer.connect(t) });
 * console.log(standalone.url); // ws://127.0.0.1:8080/
 * ```
 */
export class WebSocketHandler {
  readonly #options: WebSocketHandlerOptions;
  readonly #server: Server | undefined;
  #ownsServer = false;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<WebSocketServerTransport>();
  readonly #guard: DnsRebindingGuard | undefined;
  readonly #rateLimiter: RateLimiter | undefined;
  readonly #proxies: TrustedProxies | undefined;
  readonly #callerKey: CallerKey;
  readonly #maxSessions: number;
  /** Upgrades accepted by the checks whose WebSocket is not open yet: they count against the cap. */
  #upgrading = 0;
  #closing: Promise<void> | undefined;

  /** @internal Use `createWebSocketHandler(options)` or `listenWebSocket(options)`. */
  constructor(options: WebSocketHandlerOptions) {
    this.#options = options;
    this.#server = options.server;
    const protection = options.dnsRebindingProtection;
    this.#guard =
      protection === false
        ? undefined
        : createDnsRebindingGuard(typeof protection === 'object' ? protection : {});
    this.#rateLimiter =
      options.sessionRateLimit === false ? undefined : new RateLimiter(options.sessionRateLimit ?? {});
    // Built up front so a bad entry fails at construction, naming the option.
    this.#proxies =
      options.trustedProxies === undefined ? undefined : new TrustedProxies(options.trustedProxies);
    this.#callerKey = options.callerKey ?? defaultCallerKey;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_CONNECTED_SESSIONS;
    this.#wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
    });
    this.#server?.on('upgrade', this.#onupgrade);
  }

  /**
   * Starts a listener on its own HTTP server (which answers plain HTTP requests with 426).
   *
   * @example
   * ```ts
   * const ws = await listenWebSocket({ port: 0, onsession: (t) => mcpServer.connect(t) });
   * ```
   */
  /** @internal Use `listenWebSocket(options)`. */
  static async listen(options: WebSocketListenOptions): Promise<WebSocketHandler> {
    const server = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
      response.end('This endpoint speaks MCP over WebSocket (subprotocol "mcp").\n');
    });
    const { port, host = '127.0.0.1', ...rest } = options;
    const listener = new WebSocketHandler({ ...rest, server });
    listener.#ownsServer = true;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return listener;
  }

  /** The bound address of the underlying HTTP server, once it listens. */
  get address(): AddressInfo | undefined {
    const address = this.#server?.address();
    return typeof address === 'object' && address !== null ? address : undefined;
  }

  /** `ws://host:port/path` of the listener, once its server listens. */
  get url(): URL | undefined {
    const address = this.address;
    if (address === undefined) return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return new URL(this.#options.path ?? '/', `ws://${host}:${address.port}`);
  }

  /** Open sessions (one per connection). */
  get sessions(): ReadonlySet<WebSocketServerTransport> {
    return this.#connections;
  }

  /** Number of open sessions. */
  get sessionCount(): number {
    return this.#connections.size;
  }

  /**
   * Handles one upgrade request yourself, e.g. when routing upgrades between several endpoints.
   * The path option is not consulted here; every other check is.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#closing !== undefined) {
      refuse(socket, 503, 'Server is shutting down');
      return;
    }
    if (!offersMcp(request.headers['sec-websocket-protocol'])) {
      refuse(socket, 400, `The "${MCP_SUBPROTOCOL}" WebSocket subprotocol is required`);
      return;
    }
    const rejection = this.#guard?.(new UpgradeHeaders(request), request.socket.localAddress);
    if (rejection !== undefined) {
      refuse(socket, 403, rejection);
      return;
    }
    const headers = new UpgradeHeaders(request).headers;
    // Without a hook the caller is known now; with one, after it (its principal keys the bucket).
    if (this.#options.authenticate === undefined && this.#rateLimited(request, headers, socket, undefined))
      return;
    if (this.#connections.size + this.#upgrading >= this.#maxSessions) {
      refuse(
        socket,
        503,
        `Too many open WebSocket connections: maxSessions (${this.#maxSessions}) reached; retry later`,
        5,
      );
      return;
    }
    this.#upgrading++;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      this.#upgrading--;
    };
    // `ws` never calls back for an upgrade it refuses itself (bad key, version): the socket closing ends it.
    socket.once('close', settle);
    const upgrade = (authInfo: AuthInfo | undefined): void => {
      if (this.#options.authenticate !== undefined && this.#rateLimited(request, headers, socket, authInfo)) {
        settle();
        return;
      }
      this.#wss.handleUpgrade(request, socket, head, (ws) => {
        settle();
        socket.off('close', settle);
        this.#accept(ws, request, authInfo);
      });
    };
    const authenticate = this.#options.authenticate;
    if (authenticate === undefined) {
      upgrade(undefined);
      return;
    }
    this.#authenticate(authenticate, request, socket).then((authInfo) => {
      if (authInfo === false) settle();
      else upgrade(authInfo);
    });
  }

  /** Whether the caller is over `sessionRateLimit`; if so the upgrade was refused with 429. */
  #rateLimited(
    request: IncomingMessage,
    headers: UpgradeHeaders['headers'],
    socket: Duplex,
    authInfo: AuthInfo | undefined,
  ): boolean {
    const limiter = this.#rateLimiter;
    if (limiter === undefined) return false;
    const waitMs = limiter.take(
      this.#callerKey({
        authInfo,
        principal: authInfo === undefined ? undefined : principalOf(authInfo),
        peerAddress: request.socket.remoteAddress,
        clientAddress: this.#clientAddress(request),
        headers,
      }),
    );
    if (waitMs === 0) return false;
    refuse(
      socket,
      429,
      `Too many new connections from this client: over sessionRateLimit (${limiter.perSecond}/s, burst ${limiter.burst})`,
      Math.ceil(waitMs / 1000),
    );
    return true;
  }

  /** The caller's address: the peer, or behind `trustedProxies` the client they name. */
  #clientAddress(request: IncomingMessage): string | undefined {
    const proxies = this.#proxies;
    const peer = request.socket.remoteAddress;
    return proxies === undefined ? peer : proxies.clientAddress(peer, new UpgradeHeaders(request).headers);
  }

  /** The `authenticate` hook on the upgrade: its AuthInfo, or false once the socket was answered. */
  async #authenticate(
    authenticate: HttpAuthenticate,
    request: IncomingMessage,
    socket: Duplex,
  ): Promise<AuthInfo | undefined | false> {
    let result: AuthInfo | Response | undefined;
    try {
      result = await authenticate(webRequestOf(request));
    } catch (error) {
      this.#options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      refuse(socket, 500, 'Authentication failed');
      return false;
    }
    if (socket.destroyed || this.#closing !== undefined) {
      if (!socket.destroyed) refuse(socket, 503, 'Server is shutting down');
      return false;
    }
    if (result instanceof Response) {
      await answer(socket, result);
      return false;
    }
    return result;
  }

  /** Closes every connection (1001), detaches from the HTTP server and, if it owns it, closes that too. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#server?.off('upgrade', this.#onupgrade);
    await Promise.all(
      [...this.#connections].map((transport) =>
        transport.closeWith(CloseCode.GoingAway, 'Server shutting down'),
      ),
    );
    this.#wss.close();
    const server = this.#server;
    if (this.#ownsServer && server?.listening) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive HTTP connections would otherwise hold close() open.
      server.closeAllConnections();
      await closed;
    }
  }

  readonly #forget = (transport: WebSocketServerTransport): void => {
    this.#connections.delete(transport);
  };

  readonly #onupgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = this.#options.path;
    if (path !== undefined && pathnameOf(request.url) !== path) {
      // Another upgrade listener may own this path; answer only when nobody else can.
      if (this.#server !== undefined && this.#server.listenerCount('upgrade') <= 1) {
        refuse(socket, 404, 'Not found');
      }
      return;
    }
    this.handleUpgrade(request, socket, head);
  };

  #accept(ws: WebSocket, request: IncomingMessage, authInfo: AuthInfo | undefined): void {
    const options = this.#options;
    const transport = new WebSocketServerTransport({
      socket: ws,
      request,
      clientAddress: this.#clientAddress(request),
      authInfo,
      keepAliveMs: options.keepAliveMs,
      maxBufferedBytes: options.maxBufferedBytes,
      maxQueuedBytes: options.maxQueuedBytes,
      sendStallTimeoutMs: options.sendStallTimeoutMs,
      maxBatchSize: options.maxBatchSize,
      maxNestingDepth: options.maxNestingDepth,
    });
    this.#connections.add(transport);
    onTransportClosed(transport, this.#forget);
    const fail = (error: unknown): void => {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      transport.closeWith(CloseCode.InternalError, 'Connection handler failed').catch(() => {});
    };
    try {
      const result = options.onsession(transport, {
        request,
        authInfo,
        clientAddress: this.#clientAddress(request),
      });
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }
}

function offersMcp(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((protocol) => protocol.trim() === MCP_SUBPROTOCOL);
}

function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

/** The upgrade request as the shared DNS-rebinding guard reads it. */
class UpgradeHeaders implements GuardedRequest {
  readonly url = '';
  readonly headers: { get(name: string): string | null };

  constructor(request: IncomingMessage) {
    const raw = request.headers;
    this.headers = {
      get: (name) => {
        // node:http's header record has no prototype, and the names asked for are ours.
        const value = raw[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }
}

/** The upgrade request as a Web `Request`, for `authenticate` (the same hook the HTTP handlers take). */
function webRequestOf(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    try {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.set(name, value);
    } catch {
      // A header the Fetch API refuses to carry is not one an authenticator needs.
    }
  }
  let url: URL;
  try {
    url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(pathnameOf(request.url), 'http://localhost');
  }
  return new Request(url, { method: request.method ?? 'GET', headers });
}

/** Most bytes of an `authenticate` Response's body written to the socket. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Writes `authenticate`'s Response (status, headers such as `WWW-Authenticate`, body) as the answer. */
async function answer(socket: Duplex, response: Response): Promise<void> {
  let body = '';
  try {
    body = (await response.text()).slice(0, MAX_ANSWER_BYTES);
  } catch {
    // The status and headers say what matters.
  }
  let head = `HTTP/1.1 ${response.status} ${response.statusText || STATUS_TEXT.get(response.status) || 'Error'}\r\n`;
  head += 'Connection: close\r\n';
  response.headers.forEach((value, name) => {
    if (name === 'content-length' || name === 'connection' || name === 'transfer-encoding') return;
    head += `${name}: ${value}\r\n`;
  });
  socket.on('error', () => {});
  socket.end(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

const STATUS_TEXT = new Map<number, string>([
  [400, 'Bad Request'],
  [401, 'Unauthorized'],
  [403, 'Forbidden'],
  [404, 'Not Found'],
  [429, 'Too Many Requests'],
  [500, 'Internal Server Error'],
  [503, 'Service Unavailable'],
]);

/**
 * Answers an upgrade request with an HTTP error whose body is a JSON-RPC error without an id, as the
 * HTTP transports refuse requests; no WebSocket is created.
 */
function refuse(socket: Duplex, status: number, message: string, retryAfterSeconds?: number): void {
  const body = jsonRpcErrorText(ErrorCode.InvalidRequest, message);
  socket.on('error', () => {});
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT.get(status) ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json\r\n' +
      (retryAfterSeconds === undefined ? '' : `Retry-After: ${retryAfterSeconds}\r\n`) +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body,
  );
}

/**
 * Creates the WebSocket server endpoint (subprotocol `mcp`): every accepted connection is one session
 * whose transport goes to `onsession`, the shape of `createStreamableHttpHandler` and
 * `createSseHandler`. With `server` it attaches to that HTTP server's `upgrade` event; without it, call
 * `handleUpgrade(request, socket, head)` from your own upgrade listener.
 *
 * @example
 * ```ts
 * const httpServer = createServer().listen(8080, '127.0.0.1');
 * const ws = createWebSocketHandler({
 *   server: httpServer,
 *   path: '/mcp',
 *   onsession: (transport) => mcpServer.connect(transport),
 * });
 * // On shutdown: await ws.close();
 * ```
 */
export function createWebSocketHandler(options: WebSocketHandlerOptions): WebSocketHandler {
  return new WebSocketHandler(options);
}

/**
 * Starts a WebSocket endpoint on an HTTP server of its own (which answers plain HTTP requests with 426),
 * bound to `host` (default `127.0.0.1`) and `port` (0: any free one).
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 0, onsession: (transport) => mcpServer.connect(transport) });
 * console.log(ws.url); // e.g. ws://127.0.0.1:41234/
 * ```
 */
export function listenWebSocket(options: WebSocketListenOptions): Promise<WebSocketHandler> {
  return WebSocketHandler.listen(options);
}
