/**
 * Defaults of the Streamable HTTP handler's options that are not limits shared with other transports
 * (those are in `@x/protocol/http`): named here so that none is written inline (issue #36).
 */

// Shared with the SSE, gRPC and bridge packages: the same limit has the same default everywhere.
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_QUEUED_MESSAGES,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SSE_KEEP_ALIVE_MS,
} from '@x/protocol/http';

/**
 * The `retry` (ms) sent with priming events and before a server-side stream close (`retryIntervalMs`):
 * 1 s, how long a client waits before it reconnects.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, retryIntervalMs: 5 * DEFAULT_RETRY_INTERVAL_MS });
 * ```
 */
export const DEFAULT_RETRY_INTERVAL_MS = 1_000;

/**
 * The `Retry-After` (seconds) of the 503 that new work gets while the handler drains
 * (`retryAfterSeconds`): 1, so a balancer retries it on another instance at once.
 *
 * @example
 * ```ts
 * await handler.drain({ retryAfterSeconds: 5 * DEFAULT_DRAIN_RETRY_AFTER_SECONDS });
 * ```
 */
export const DEFAULT_DRAIN_RETRY_AFTER_SECONDS = 1;
