export { createSseHandler } from './server/create-sse-handler.js';
export type { SseHandler } from './server/create-sse-handler.js';
export {
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_SESSIONS,
} from './server/sse-server.js';
export type { SseHandlerOptions, SseSessionContext } from './server/sse-server.js';
export type {
  CallerInfo,
  CallerKey,
  ConnectionInfo,
  CorsOptions,
  HttpAuthenticate,
  TrustedProxiesOption,
  TrustedProxiesOptions,
  WebHandler,
} from '@x/protocol/http';
export { SseServerTransport } from './server/sse-server-transport.js';
export { DEFAULT_MAX_MESSAGE_BYTES, SseClientTransport } from './client/sse-client-transport.js';
export { SseEndpointError } from './client/sse-endpoint-error.js';
export { DEFAULT_ENDPOINT_TIMEOUT_MS } from './client/sse-client-options.js';
export type { SseClientTransportOptions } from './client/sse-client-options.js';
export {
  createHealthCheck,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
  HttpStatusError,
} from '@x/protocol/http';
export type { HealthCheckOptions, HealthStatus } from '@x/protocol/http';
