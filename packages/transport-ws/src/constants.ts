import { DEFAULT_MAX_CONNECTED_SESSIONS } from '@x/protocol/http';

/**
 * The WebSocket subprotocol MCP speaks (SEP-1288; also what the official SDK's client offers).
 *
 * @example
 * ```ts
 * // A plain browser WebSocket that an MCP server will accept.
 * const socket = new WebSocket('wss://mcp.example.com/mcp', MCP_SUBPROTOCOL);
 * ```
 */
export const MCP_SUBPROTOCOL = 'mcp';

// Shared with every transport (the same limit has the same default everywhere, issue #36).
export { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_QUEUED_BYTES } from '@x/protocol/http';

/**
 * Unsent bytes a connection's socket may hold: a message that finds it this full waits in the send
 * queue (bounded by `maxQueuedBytes`) until the socket drains, so a slow peer gets backpressure rather
 * than an unbounded socket buffer. Two maximal messages. Smaller than an HTTP event stream's
 * `DEFAULT_MAX_STREAM_BUFFERED_BYTES` (32 MiB) on purpose: here a send queue (`maxQueuedBytes`, 32 MiB)
 * stands in front of the socket, so the two together give the same room.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   maxBufferedBytes: 2 * DEFAULT_MAX_BUFFERED_BYTES,
 * });
 * ```
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * How long messages may wait to be sent without one leaving the socket before the peer counts as not
 * reading: the connection closes with 1008 and `SendStalledError`. Noticed within twice this time.
 *
 * @example
 * ```ts
 * // Give up on a client that stops reading sooner than the default 30 s.
 * const ws = await listenWebSocket({ port: 8080, sendStallTimeoutMs: 10_000, onsession });
 * ```
 */
export const DEFAULT_SEND_STALL_TIMEOUT_MS = 30_000;

/**
 * How often a silent peer is pinged. A peer that misses one whole interval is dropped.
 *
 * @example
 * ```ts
 * // Ping twice as often as the default, for a proxy that drops idle connections after 20 s.
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   keepAliveMs: DEFAULT_KEEP_ALIVE_MS / 2,
 * });
 * ```
 */
export const DEFAULT_KEEP_ALIVE_MS = 30_000;

/**
 * Open sessions (connections) one `createWebSocketHandler` accepts by default (an idle one costs ~15 KB); past it an
 * upgrade gets 503 with `Retry-After`.
 *
 * @deprecated Use `DEFAULT_MAX_CONNECTED_SESSIONS` from `@x/protocol/http` (the same value, shared with the
 * SSE server). This alias goes in the next minor version.
 *
 * @example
 * ```ts
 * const ws = await listenWebSocket({ port: 8080, maxSessions: 4 * DEFAULT_MAX_CONNECTED_SESSIONS, onsession });
 * ```
 */
export const DEFAULT_MAX_SESSIONS: number = DEFAULT_MAX_CONNECTED_SESSIONS;

/** How long `close()` waits for the peer's close frame before dropping the socket. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;

/**
 * The close codes this package sends or acts on (RFC 6455 §7.4.1).
 *
 * @example
 * ```ts
 * socket.addEventListener('close', (event) => {
 *   if (event.code === CloseCode.MessageTooBig) console.error('message over the peer’s maxMessageBytes');
 * });
 * ```
 */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  ProtocolError: 1002,
  UnsupportedData: 1003,
  Abnormal: 1006,
  InvalidPayload: 1007,
  PolicyViolation: 1008,
  MessageTooBig: 1009,
  InternalError: 1011,
} as const;
