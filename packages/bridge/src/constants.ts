/**
 * Messages one direction of a pipe may hold while the receiving transport has not finished sending
 * them (a slow or not-yet-started peer). Past it a request is answered with an error naming
 * `maxQueuedMessages` and a notification is dropped (reported to `onerror`): a bridge never buffers
 * without bound.
 */
export const DEFAULT_MAX_QUEUED_MESSAGES = 1_000;

/**
 * Requests one direction of a pipe may have forwarded and not yet seen answered. Past it a request is
 * answered with an error naming `maxInFlightRequests`.
 */
export const DEFAULT_MAX_IN_FLIGHT_REQUESTS = 1_000;

/** How long `createBridge` waits for an upstream to connect (spawned and `initialize`d, or discovered). */
export const DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS = 30_000;
