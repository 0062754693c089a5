import { ErrorCode, StoreTimeoutError } from '@x/protocol/core';
import { errorResponse } from './http-responses.js';

/**
 * 503 with `Retry-After: 1` for a shared store that failed or missed its `storeTimeoutMs` deadline (e.g.
 * Redis down or frozen): a load balancer retries it on another instance. The message names the store
 * and, for a timeout, the option; never the store's own error, which may carry its address or
 * credentials (issue #35, finding 12). `onerror` gets the full error.
 */
export function storeUnavailable(onerror: (error: unknown) => void, error: unknown, store: string): Response {
  onerror(error);
  const message =
    error instanceof StoreTimeoutError
      ? `Service Unavailable: the ${error.message}`
      : `Service Unavailable: the ${store} failed`;
  return errorResponse(503, ErrorCode.InternalError, message, { headers: { 'retry-after': '1' } });
}
