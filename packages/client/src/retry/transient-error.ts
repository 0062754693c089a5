import { ErrorCode, McpError } from '@x/protocol/core';
import { httpStatusOf } from '../transport-failure.js';

/** Statuses that say "not now" rather than "no" (RFC 9110 §15.6, RFC 6585 §4). */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * The default `isTransient` of a retry policy: a failure a later attempt may not meet. A closed or lost
 * connection and a timeout (-32000 — `TransportLostError` included —, -32001) and HTTP 429/502/503/504 (found on the
 * error or its `cause` chain, as `HttpStatusError` carries it). JSON-RPC errors a server answered with
 * (invalid params, unknown tool…) are not.
 *
 * @example
 * ```ts
 * isTransientError(new RequestTimeoutError('slow', { timeout: 1000 })); // true
 * isTransientError(new McpError(ErrorCode.InvalidParams, 'bad')); // false
 * ```
 */
export function isTransientError(error: unknown): boolean {
  if (error instanceof McpError) {
    return error.code === ErrorCode.ConnectionClosed || error.code === ErrorCode.RequestTimeout;
  }
  const status = httpStatusOf(error);
  return status !== undefined && TRANSIENT_STATUSES.has(status);
}

/** The server's `Retry-After` in ms, from an `HttpStatusError` (or one in the `cause` chain). */
export function retryAfterOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const value = (current as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof value === 'number' && value >= 0) return value;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
