/**
 * Web-standard HTTP helpers shared by the HTTP transports (`@x/transport-streamable-http`,
 * `@x/transport-sse`, and the WebSocket listener's upgrade check): DNS-rebinding protection, bounded body reading, media-type checks. They use only
 * `Request`/`Headers`/streams, so they run wherever the transports' Web-standard handlers run.
 */
export {
  createDnsRebindingGuard,
  isLoopbackAddress,
  LOOPBACK_HOSTS,
  LOOPBACK_ORIGINS,
} from './dns-rebinding-guard.js';
export type { DnsRebindingGuard, DnsRebindingOptions, GuardedRequest } from './dns-rebinding-guard.js';
export { jsonRpcErrorResponse, jsonRpcErrorText } from './json-rpc-error-response.js';
export type { JsonRpcErrorResponseInit } from './json-rpc-error-response.js';
export { acceptsAll, isJsonContentType, parseMediaType } from './media-type.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  PayloadTooLargeError,
  readBoundedEvents,
  readBoundedText,
} from './read-bounded-body.js';
export type { ChunkEventSource, ReadBoundedTextOptions } from './read-bounded-body.js';
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from '../transports/limit-defaults.js';
export type { SessionContext } from './session-context.js';
export { shouldFallBackToSse } from './should-fall-back-to-sse.js';
export { createHealthCheck, DEFAULT_HEALTH_CHECK_TIMEOUT_MS } from './health-check.js';
export type { HealthCheckOptions, HealthStatus } from './health-check.js';
export { DEFAULT_IDLE_TIMEOUT_MS, IdleWatchdog } from './idle-watchdog.js';
export { DEFAULT_RATE_LIMIT, RateLimiter } from './rate-limiter.js';
export { PRINCIPAL_SUBJECT_KEYS, principalOf, subjectOf } from './principal-of.js';
export { TrustedProxies } from './trusted-proxies.js';
export type { ForwardedHeaders, TrustedProxiesOption, TrustedProxiesOptions } from './trusted-proxies.js';
export { defaultCallerKey } from './caller-key.js';
export type { CallerInfo, CallerKey } from './caller-key.js';
export type { RateLimiterOptions } from './rate-limiter.js';
export { MAX_AUTH_RETRIES } from './auth-options.js';
export type { HttpAuthenticate, HttpClientAuthOptions, HttpRequestInfo } from './auth-options.js';
export type { FetchLike } from './fetch-like.js';
export { HttpStatusError, parseRetryAfter } from './http-status-error.js';
export type { HttpStatusErrorInit } from './http-status-error.js';
export { webIncoming } from './http-incoming.js';
export type {
  ConnectionInfo,
  HeaderReader,
  HttpIncoming,
  IncomingHandler,
  WebHandler,
} from './http-incoming.js';
export { LazyResponse, toPlatformResponse } from './lazy-response.js';
export type { LazyBody } from './lazy-response.js';
export type { FrameSink, FrameStream } from './frame-stream.js';
export { Cors, DEFAULT_CORS_MAX_AGE_SECONDS } from './cors.js';
export type { CorsPolicy } from './cors.js';
export { encodeSseComment, encodeSseEvent } from './sse-encoding.js';
export type { SseEvent } from './sse-encoding.js';
export { assertWebRequest } from './assert-web-request.js';
export type { CorsOptions } from './cors-options.js';
export { quotedString } from './quoted-string.js';
export { isNodeRuntime } from './is-node-runtime.js';
