export { createStreamableHttpHandler } from './server/handler.js';
export type { StreamableHttpHandler } from './server/handler.js';
export type {
  AuthenticateResult,
  HandlerContext,
  StreamableHttpHandlerOptions,
  StreamableHttpServerTransport,
} from './server/options.js';
export { toNodeHandler } from './server/node-adapter.js';
export type { NodeHandler, WebHandler } from './server/node-adapter.js';
export { InMemoryEventStore } from './server/event-store.js';
export type { EventStore, InMemoryEventStoreOptions } from './server/event-store.js';
export type { CorsOptions } from './server/cors.js';
export { StreamableHttpClientTransport } from './client/transport.js';
export { STREAMABLE_HTTP_RECONNECT_DEFAULTS } from './client/options.js';
export type { StreamableHttpClientTransportOptions } from './client/options.js';
export { StreamableHttpError } from './client/http-error.js';
export { connectWithSseFallback, shouldFallBackToSse } from './client/fallback.js';
export type { SseFallbackOptions } from './client/fallback.js';
export { decodeHeaderValue, encodeHeaderValue } from './shared/header-value.js';
export { paramHeadersOf } from './shared/param-headers.js';
export type { ParamHeader } from './shared/param-headers.js';
