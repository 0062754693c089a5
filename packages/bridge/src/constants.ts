// Shared with Streamable HTTP's `maxQueuedMessages`: one name, one value (issue #36).
export { DEFAULT_MAX_QUEUED_MESSAGES } from '@x/protocol/transport';

/**
 * Requests one direction of a pipe may have forwarded and not yet seen answered. Past it a request is
 * answered with an error naming `maxInFlightRequests`.
 */
export const DEFAULT_MAX_IN_FLIGHT_REQUESTS = 1_000;

/** How long `createBridge` waits for an upstream to connect (spawned and `initialize`d, or discovered). */
export const DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS = 30_000;
