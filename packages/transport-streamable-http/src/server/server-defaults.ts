/**
 * Defaults of the Streamable HTTP handler's options that are not limits shared with other transports
 * (those are in `@x/protocol/http`): named here so that none is written inline (issue #36).
 */

/**
 * Server-initiated messages a legacy session holds while no GET stream is open (`maxQueuedMessages`):
 * 1 000, enough for a burst of notifications between two GETs, bounded so an absent client costs little.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, maxQueuedMessages: DEFAULT_MAX_QUEUED_MESSAGES / 10 });
 * ```
 */
export const DEFAULT_MAX_QUEUED_MESSAGES = 1_000;

/**
 * Idle time after which a legacy session with no request in flight and no GET stream is closed
 * (`sessionIdleTimeoutMs`): 30 minutes, as the SSE transport's `DEFAULT_SESSION_IDLE_TIMEOUT_MS`.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, sessionIdleTimeoutMs: DEFAULT_SESSION_IDLE_TIMEOUT_MS / 6 });
 * ```
 */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/**
 * Interval of keep-alive comments on long-lived streams (`keepAliveMs`): 15 s, as the SSE transport's
 * `DEFAULT_KEEP_ALIVE_MS`, under the 30-60 s idle timeouts of common proxies.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, keepAliveMs: 2 * DEFAULT_SSE_KEEP_ALIVE_MS });
 * ```
 */
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;

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
 * How long `handler.drain()` waits for the requests in flight before it closes what is left
 * (`timeoutMs`): 30 s, under the 30-60 s grace most orchestrators give a stopping instance.
 *
 * @example
 * ```ts
 * await handler.drain({ timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS / 3 });
 * ```
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

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
