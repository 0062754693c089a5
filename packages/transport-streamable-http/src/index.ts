export { createStreamableHttpHandler } from './server/handler.js';
export type { DrainOptions, StreamableHttpHandler } from './server/handler.js';
export { MAX_SESSION_ID_LENGTH } from './server/session-id.js';
export { DEFAULT_MAX_LISTEN_STREAMS } from './server/listen-streams.js';
export {
  DEFAULT_DRAIN_RETRY_AFTER_SECONDS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from './server/server-defaults.js';
export type {
  StreamableHttpHandlerOptions,
  StreamableHttpServerTransport,
} from './server/options.js';
export type {
  CallerInfo,
  CallerKey,
  ConnectionInfo,
  HttpAuthenticate,
  SessionContext,
  TrustedProxiesOption,
  TrustedProxiesOptions,
  WebHandler,
} from '@x/protocol/http';
export { InMemoryEventStore } from '@x/protocol/core';
export type { EventStore, InMemoryEventStoreOptions } from '@x/protocol/core';
export type { CorsOptions } from './server/cors.js';
export { DEFAULT_MAX_BUFFERED_BYTES } from './server/sse-writer.js';
export { StreamableHttpClientTransport } from './client/transport.js';
export { STREAMABLE_HTTP_RECONNECT_DEFAULTS } from './client/options.js';
export type { StreamableHttpClientTransportOptions } from './client/options.js';
export {
  createHealthCheck,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  HttpStatusError,
} from '@x/protocol/http';
export type { HealthCheckOptions, HealthStatus } from '@x/protocol/http';
export { connectWithSseFallback, shouldFallBackToSse } from './client/fallback.js';
export type { SseFallbackOptions } from './client/fallback.js';
export { decodeHeaderValue, encodeHeaderValue } from './shared/header-value.js';
export { paramHeadersOf } from './shared/param-headers.js';
export type { ParamHeader } from './shared/param-headers.js';
