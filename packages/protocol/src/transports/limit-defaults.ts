/**
 * The defaults of the limits every transport shares, in one place so that the same limit has the same
 * default on every transport (issue #36). Each transport imports these; none writes a default inline.
 * Where two defaults differ, the reason is in the constant's name and doc.
 */

/**
 * Largest incoming message, in bytes (`maxMessageBytes` on every transport: an HTTP POST body, a
 * WebSocket frame, an SSE event, a stdio line): 4 MiB, the cap the official SDK puts on a Streamable
 * HTTP body. Comfortably above 1 MiB messages, yet small enough that a hostile peer cannot make a
 * server buffer much per connection. Stdio keeps its own, larger default
 * ({@link DEFAULT_MAX_LINE_BYTES}): its peer is a trusted local process, not the network.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, maxMessageBytes: 4 * DEFAULT_MAX_MESSAGE_BYTES });
 * ```
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Largest stdio line (stdio's `maxMessageBytes`): 8 MiB, twice {@link DEFAULT_MAX_MESSAGE_BYTES}
 * because the peer of a pipe is a local process the user started (a server it spawned, or the client
 * that spawned it), not a stranger on the network, and large tool results are common there.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport({ maxMessageBytes: 2 * DEFAULT_MAX_LINE_BYTES });
 * ```
 */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Sessions one Streamable HTTP endpoint (or session store) holds at once (`maxSessions`): 10 000. A
 * Streamable HTTP session is a record between requests, not a connection, so it costs little; the
 * least recently used idle one goes first. Servers whose every session holds an open connection use
 * {@link DEFAULT_MAX_CONNECTED_SESSIONS}.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, maxSessions: DEFAULT_MAX_SESSIONS / 10 });
 * ```
 */
export const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Sessions one SSE or WebSocket server holds at once (`maxSessions`): 1 000. Each of these sessions is
 * an open connection with its socket and buffers (some 20 KB at rest, up to the buffered-bytes caps
 * under load), ten times the cost of a Streamable HTTP session ({@link DEFAULT_MAX_SESSIONS}).
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 8080, maxSessions: 4 * DEFAULT_MAX_CONNECTED_SESSIONS, onsession });
 * ```
 */
export const DEFAULT_MAX_CONNECTED_SESSIONS = 1_000;

/**
 * Bytes one HTTP event stream (an SSE response of Streamable HTTP or the SSE transport) may hold unsent
 * (`maxBufferedBytes`): 32 MiB. Every answer of a session may share one stream, so the cap must hold a
 * burst: 24 results of 1 MiB at once overflowed the former 16 MiB though the client read at full speed
 * (issue #35). A stream has no send queue in front of it, so this one cap is all its room.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, maxBufferedBytes: 2 * DEFAULT_MAX_STREAM_BUFFERED_BYTES });
 * ```
 */
export const DEFAULT_MAX_STREAM_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * Bytes of messages that may wait in a transport's send queue for its socket or pipe to drain
 * (`maxQueuedBytes`, WebSocket and stdio): 32 MiB, room for a burst of some 30 answers of 1 MiB to a
 * peer that reads, the same room an HTTP event stream has ({@link DEFAULT_MAX_STREAM_BUFFERED_BYTES}).
 * Past it the peer counts as not reading and the transport closes.
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 8080, maxQueuedBytes: 4 * DEFAULT_MAX_QUEUED_BYTES, onsession });
 * ```
 */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;

/**
 * Bytes a socket, pipe or HTTP/2 stream may hold unsent before further messages wait in the send queue
 * (`maxBufferedBytes`, stdio, WebSocket and gRPC): 8 MiB, two maximal network messages
 * ({@link DEFAULT_MAX_MESSAGE_BYTES}). Smaller than an HTTP event stream's
 * {@link DEFAULT_MAX_STREAM_BUFFERED_BYTES} on purpose: here a send queue ({@link DEFAULT_MAX_QUEUED_BYTES})
 * stands in front of the socket, so the two together give the same room.
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 8080, maxBufferedBytes: 2 * DEFAULT_MAX_BUFFERED_BYTES, onsession });
 * ```
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * How long messages may wait to be sent without one leaving the socket, pipe or stream before the peer
 * counts as not reading (`sendStallTimeoutMs`, stdio, WebSocket and gRPC): 30 s. The transport then closes
 * with `SendStalledError`, which fails the requests pending on it at once instead of at their timeout.
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 8080, sendStallTimeoutMs: DEFAULT_SEND_STALL_TIMEOUT_MS / 3, onsession });
 * ```
 */
export const DEFAULT_SEND_STALL_TIMEOUT_MS = 30_000;

/**
 * How often a silent connection is pinged (`keepAliveMs` of the WebSocket and gRPC transports, a
 * WebSocket ping or an HTTP/2 PING): 30 s. A peer that does not answer is dropped, so a dead
 * connection is noticed within about a minute. Event streams send comments instead, more often:
 * {@link DEFAULT_SSE_KEEP_ALIVE_MS}.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport(url, { keepAliveMs: DEFAULT_KEEP_ALIVE_MS / 2 });
 * ```
 */
export const DEFAULT_KEEP_ALIVE_MS = 30_000;

/**
 * Interval of the `:` keep-alive comments on an idle event stream (`keepAliveMs` of the Streamable HTTP
 * and SSE servers): 15 s, half of {@link DEFAULT_KEEP_ALIVE_MS} because a comment gets no answer: it
 * only keeps proxies with 30-60 s idle timeouts from cutting the response, so it must come well inside
 * the shortest of them.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, keepAliveMs: 2 * DEFAULT_SSE_KEEP_ALIVE_MS });
 * ```
 */
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;

/**
 * How long a server's `drain()` waits for the requests in flight before it closes what is left
 * (`timeoutMs` of `drain()`, Streamable HTTP and gRPC): 30 s, the shutdown grace of Spring Boot and the
 * default stop grace of Kubernetes and ECS; a server that must stop sooner passes its own.
 *
 * @example
 * ```ts
 * await handler.drain({ timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS / 3 });
 * ```
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/**
 * Idle time after which a session with no request in flight is closed and forgotten
 * (`sessionIdleTimeoutMs` of the Streamable HTTP and SSE servers, `idleTimeoutMs` of the session
 * stores): 30 minutes without a message either way, long enough for a user who steps away from a chat.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession, sessionIdleTimeoutMs: DEFAULT_SESSION_IDLE_TIMEOUT_MS / 6 });
 * ```
 */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/**
 * Messages that may wait for a peer that cannot take them yet (`maxQueuedMessages`: a legacy Streamable
 * HTTP session with no GET stream open, one direction of a bridge whose receiving transport has not
 * finished sending): 1 000, enough for a burst of notifications, bounded so that an absent or slow peer
 * costs little.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, maxQueuedMessages: DEFAULT_MAX_QUEUED_MESSAGES / 10 });
 * ```
 */
export const DEFAULT_MAX_QUEUED_MESSAGES = 1_000;
