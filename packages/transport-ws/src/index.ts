export { WebSocketClientTransport } from './client-transport.js';
export type { WebSocketClientTransportOptions } from './client-transport.js';
export { WEBSOCKET_RECONNECT_DEFAULTS } from './client-transport-base.js';
export type { WebSocketClientCommonOptions } from './client-transport-base.js';
export {
  CloseCode,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  MCP_SUBPROTOCOL,
} from './constants.js';
export { SendBufferFullError, SendStalledError, WebSocketHandshakeError } from './errors.js';
