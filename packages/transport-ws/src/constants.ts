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
export {
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from '@x/protocol/transport';

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
 * How long the client's opening handshake may take before `start()` rejects with a
 * `WebSocketHandshakeError` of status 0 (`handshakeTimeoutMs`): 30 s, room for a cold start of a
 * serverless backend, the SSE client's `DEFAULT_ENDPOINT_TIMEOUT_MS` too.
 *
 * @example
 * ```ts
 * const transport = new WebSocketClientTransport(url, { handshakeTimeoutMs: DEFAULT_HANDSHAKE_TIMEOUT_MS / 6 });
 * ```
 */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;

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
