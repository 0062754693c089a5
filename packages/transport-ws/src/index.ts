export type { ReconnectOptions } from './backoff.js';
export { WebSocketClientTransport } from './client-transport.js';
export type { WebSocketClientTransportOptions } from './client-transport.js';
export type { WebSocketClientCommonOptions } from './client-transport-base.js';
export {
  CloseCode,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_PAYLOAD,
  DEFAULT_MAX_SESSIONS,
  MCP_SUBPROTOCOL,
} from './constants.js';
export { SendBufferFullError, WebSocketHandshakeError } from './errors.js';
export { WebSocketServerTransport } from './server-transport.js';
export type { WebSocketServerTransportOptions } from './server-transport.js';
export { createWebSocketHandler, listenWebSocket } from './websocket-listener.js';
export type {
  WebSocketHandler,
  WebSocketHandlerOptions,
  WebSocketListenOptions,
  WebSocketSessionContext,
} from './websocket-listener.js';
