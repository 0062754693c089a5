export {
  SseServer,
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
} from './server/sse-server.js';
export type { SseConnectionInfo } from './server/sse-incoming.js';
export type { SseAuthenticate, SseServerOptions, SseSessionContext } from './server/sse-server.js';
export { SseServerTransport } from './server/sse-server-transport.js';
export { DEFAULT_MAX_MESSAGE_BYTES, SseClientTransport } from './client/sse-client-transport.js';
export { SseEndpointError } from './client/sse-endpoint-error.js';
export type { SseClientTransportOptions } from './client/sse-client-options.js';
export { HttpStatusError } from './http/http-status-error.js';
export { encodeSseComment, encodeSseEvent } from './http/sse-encoding.js';
export type { SseEvent } from './http/sse-encoding.js';
