import type { AuthInfo, Era, Transport } from '@x/protocol/core';
import type { CorsOptions } from './cors.js';
import type {
  CallerKey,
  DnsRebindingOptions,
  HttpAuthenticate,
  RateLimiterOptions,
  TrustedProxiesOption,
  SessionContext,
} from '@x/protocol/http';
import type { EventStore, MessageBus, SessionStore } from '@x/protocol/core';
import type { ParamHeader } from '../shared/param-headers.js';

/**
 * The server end the handler hands to `onsession`: one per legacy session, or one per POST in stateless
 * mode and in the modern era. Connect it to a server (`server.connect(transport)`); it closes itself
 * (firing `onclose`) when its session ends or, per request, once the response is sent.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: async (transport) => {
 *     await mcpServer.connect(transport);
 *     if (transport.era === 'legacy') console.log('legacy session', transport.sessionId);
 *   },
 * });
 * ```
 */
export interface StreamableHttpServerTransport extends Transport {
  /** Which revision family the client speaks on this transport (DESIGN §4). */
  readonly era: Era;
  /** The legacy session id; undefined for per-request transports. */
  readonly sessionId: string | undefined;
}

/**
 * Options of `createStreamableHttpHandler`.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: (transport) => mcpServer.connect(transport),
 *   eventStore: new InMemoryEventStore(),
 *   dnsRebindingProtection: {
 *     allowedHosts: ['mcp.example.com'],
 *     allowedOrigins: ['https://app.example.com'],
 *   },
 *   authenticate: async (request) =>
 *     (await verify(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '')) ??
 *     new Response(null, { status: 401 }),
 * });
 * ```
 */
export interface StreamableHttpHandlerOptions {
  /**
   * Receives every new server transport; connect it to your MCP server here. Messages that arrive before
   * the transport is started are held, so an un-awaited `server.connect(transport)` is fine.
   */
  onsession: (transport: StreamableHttpServerTransport, context: SessionContext) => unknown;
  /**
   * Legacy sessions (`Mcp-Session-Id`, GET stream, DELETE). `false` is stateless mode: a fresh transport
   * per POST, no GET stream. Default `true`. The modern era is always stateless.
   *
   * @default true
   */
  sessions?: boolean | undefined;
  /** Session id factory; ids must be visible ASCII (0x21–0x7E). Default: 128 random bits, base64url. */
  sessionIdGenerator?: (() => string) | undefined;
  /**
   * A session without any request for this long is closed (later requests get 404); one with a GET
   * stream open or a request in flight is never idle. Default 30 min (`DEFAULT_SESSION_IDLE_TIMEOUT_MS`).
   *
   * @default {@link DEFAULT_SESSION_IDLE_TIMEOUT_MS}
   */
  sessionIdleTimeoutMs?: number | undefined;
  /**
   * Live sessions at most. A new one evicts the least recently used idle session; when every session has
   * a stream open or a request in flight, `initialize` is refused with 503 and `Retry-After`.
   * Default 10 000.
   *
   * @default {@link DEFAULT_MAX_SESSIONS}
   */
  maxSessions?: number | undefined;
  /**
   * `subscriptions/listen` streams (2026-07-28) open at once in this process; past it the request gets
   * 503 with `Retry-After` and a JSON-RPC error naming this option (none is evicted: each is a client's
   * live stream). Default `DEFAULT_MAX_LISTEN_STREAMS` (10 000), as `maxSessions`.
   *
   * @default {@link DEFAULT_MAX_LISTEN_STREAMS}
   */
  maxListenStreams?: number | undefined;
  /**
   * How fast one caller may create sessions: a token bucket per `callerKey` (by default its principal,
   * see `sessionPrincipal`, else its client address, see `trustedProxies`). Past it `initialize` gets 429
   * with `Retry-After`. `false` disables it. Default `DEFAULT_RATE_LIMIT` of `@x/protocol/http`: 10 per
   * second, bursts of 50, 10 000 callers tracked.
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
   * The principal a legacy session is bound to, from the `authenticate` hook's `AuthInfo`: only requests
   * of the same principal may use the session (others get 403). Default `principalOf` of
   * `@x/protocol/http`: `clientId` plus, when the hook put one in `extra`, the first string of
   * `extra.sub`, `extra.subject`, `extra.userId` (so one OAuth client acting for two users yields two
   * principals; a refreshed token keeps its principal), encoded so no two pairs collide. Sessions
   * opened without `AuthInfo` are anonymous and serve only anonymous requests.
   */
  sessionPrincipal?: ((auth: AuthInfo) => string | undefined) | undefined;
  /**
   * Answer requests with one `application/json` body instead of an SSE stream. Default `false`.
   * A JSON body carries no progress or log notifications before the answer, so a long tool cannot keep
   * its call alive past the client's timeout: use SSE replies or a task for long tools.
   *
   * @default false
   */
  enableJsonResponse?: boolean | undefined;
  /**
   * Makes legacy SSE streams resumable with `Last-Event-ID`. Default: none (not resumable).
   *
   * @default none
   */
  eventStore?: EventStore | undefined;
  /**
   * `retry` (ms) sent with priming events and before a server-side stream close. Default 1 000 (`DEFAULT_RETRY_INTERVAL_MS`).
   *
   * @default {@link DEFAULT_RETRY_INTERVAL_MS}
   */
  retryIntervalMs?: number | undefined;
  /**
   * Largest POST body in bytes (413 beyond). Default 4 MiB (`DEFAULT_MAX_MESSAGE_BYTES`).
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * Largest POST body in bytes.
   *
   * @deprecated Use `maxMessageBytes`, the name of this limit on every transport; `maxMessageBytes`
   * wins when both are given. This alias goes in the next minor version.
   */
  maxBodyBytes?: number | undefined;
  /**
   * Most messages in one 2025-03-26 JSON-RPC batch; a larger batch is refused whole with 400 and a
   * -32600 error naming `maxBatchSize`. Default 1000 (`DEFAULT_MAX_BATCH_SIZE`), as on SSE and WebSocket.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * The endpoint's pathname (e.g. `'/mcp'`): a request to any other path gets 404 with a JSON-RPC error
   * body. Default: every path is the endpoint (mount the handler on a route of your framework).
   */
  path?: string | undefined;
  /**
   * How deeply a POST body's arrays and objects may nest; deeper bodies are refused with 400 (-32700)
   * before they are parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * Bytes an SSE response may hold unread by its client before the server drops that connection, so a
   * client that stops reading cannot grow server memory. Default 32 MiB (`DEFAULT_MAX_STREAM_BUFFERED_BYTES`):
   * a burst of large messages to a client that reads fits; the error of a dropped connection reaches
   * `onerror` and names this option.
   *
   * @default {@link DEFAULT_MAX_STREAM_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Host/Origin checks against DNS rebinding (403), the policy every x-mcp network server shares: a
   * present Origin must be on `allowedOrigins` (default: the loopback origins) on every bind address;
   * Host is checked on loopback, or everywhere once `allowedHosts` is given. `false` disables both.
   *
   * @default true
   */
  dnsRebindingProtection?: DnsRebindingOptions | boolean | undefined;
  /**
   * CORS for browser clients; `true` allows any origin. Default off.
   *
   * @default false
   */
  cors?: CorsOptions | boolean | undefined;
  /** Authenticates each request before its body is read. */
  authenticate?: HttpAuthenticate | undefined;
  /**
   * The OAuth scopes a request needs, by method and name (the tool of `tools/call`, the prompt of
   * `prompts/get`, the URI of `resources/read`): wire it to `McpServer.requiredScopesFor`. Checked after
   * `authenticate`, before dispatch, for a single request whose `AuthInfo` lacks one: HTTP 403 with
   * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"` and a
   * JSON-RPC error body (-32600, `data.error` `insufficient_scope`), so an OAuth client can step up
   * (spec basic/authorization "Runtime Insufficient Scope Errors"). Batches and requests without
   * `AuthInfo` pass through to the server's own check. Default: none.
   *
   * @default none
   */
  requiredScopes?:
    | ((request: { method: string; name?: string }) => readonly string[] | undefined)
    | undefined;
  /**
   * The `resource_metadata` URL (RFC 9728) in the `requiredScopes` 403 challenge; the same URL your
   * 401 challenges name (`resourceMetadataUrl(resource).href` of `@x/auth`). Default: omitted.
   *
   * @default none
   */
  resourceMetadataUrl?: string | undefined;
  /**
   * Keep-alive comment interval on long-lived streams (GET, `subscriptions/listen`). Default 15 s (`DEFAULT_SSE_KEEP_ALIVE_MS`); 0 off.
   *
   * @default {@link DEFAULT_SSE_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * The `x-mcp-header` mirrors of a tool (see `paramHeadersOf`), used to validate `Mcp-Param-*` headers
   * of modern `tools/call` requests. Without it only the standard headers are validated.
   */
  paramHeaders?: ((toolName: string) => readonly ParamHeader[] | undefined) | undefined;
  /** Protocol versions accepted in `MCP-Protocol-Version`. Default: every version `@x/protocol` speaks. */
  supportedProtocolVersions?: readonly string[] | undefined;
  /**
   * Shared legacy sessions, for several processes behind one endpoint with no sticky sessions (DESIGN
   * §9): a new session is recorded here (its principal and stream tag) before `initialize` is answered,
   * and a request naming a session this process does not hold is served after reading it from here
   * (404 when the store does not know it either, 503 when the store fails). Give the server
   * (`McpServer`'s `sessionStore` option) the same store and every process the same `eventStore`.
   * Default: none (sessions live in this process only).
   *
   * @default none
   */
  sessionStore?: SessionStore | undefined;
  /**
   * Routes a shared session's messages between processes (DESIGN §9; use with `sessionStore` and a shared
   * `eventStore`): a message for the GET stream raised on a process that does not hold it is stored and
   * published to the holder (change notifications excepted: the holder raises its own), and a client's
   * answer to a server→client request reaches the process that asked, wherever it was POSTed.
   * Server→client request ids then carry this process's `instanceId`. Default: none.
   *
   * @default none
   */
  messageBus?: MessageBus | undefined;
  /**
   * This process's name on the `messageBus`, unique among the endpoint's processes (visible ASCII, no
   * `~`). Default: 64 random bits, hex.
   */
  instanceId?: string | undefined;
  /**
   * How long one call of `sessionStore`, `eventStore` or `messageBus` may take (ms). Past it the request
   * that needs the call gets 503 with `Retry-After: 1` and a message naming the store and this option
   * (e.g. "session store did not answer within 2000 ms (storeTimeoutMs)"), and `onerror` the
   * `StoreTimeoutError`; a write that only makes a message resumable is skipped and reported. So a
   * store that stops answering (a frozen Redis, a client queueing commands while it reconnects) never
   * holds requests open. `Infinity` turns it off. Default 2 000 (`DEFAULT_STORE_TIMEOUT_MS`).
   *
   * @default {@link DEFAULT_STORE_TIMEOUT_MS}
   */
  storeTimeoutMs?: number | undefined;
  /**
   * Server-initiated messages held per session while no GET stream is open. Default 1 000 (`DEFAULT_MAX_QUEUED_MESSAGES`).
   *
   * @default {@link DEFAULT_MAX_QUEUED_MESSAGES}
   */
  maxQueuedMessages?: number | undefined;
  /** Faults that have no HTTP response to go to (a failed event-store write, a throwing `onsession`). */
  onerror?: ((error: Error) => void) | undefined;
}
