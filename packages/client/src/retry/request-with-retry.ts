import {
  ConnectionClosedError,
  type OutgoingRequest,
  type RequestOptions,
  reconnectDelay,
  type ZodSchema,
} from '@x/protocol/core';
import type { ResolvedRetryOptions } from './retry-options.js';
import { retryAfterOf } from './transient-error.js';

/** What the retry loop needs from the engine: a fresh request (a fresh JSON-RPC id) and liveness. */
export interface RetryTarget {
  request(request: OutgoingRequest, schema: ZodSchema, options?: RequestOptions): Promise<unknown>;
  /** Undefined once the connection is closed for good: nothing left to retry on. */
  readonly transport: unknown;
  /** A session handshake in progress after a reconnect: a retry waits for it (legacy servers refuse anything else first). */
  readonly handshake?: Promise<void> | undefined;
  /** Calls `wake` once the connection closes (at once if it is); returns what unregisters it. */
  onceClosed(wake: () => void): () => void;
}

/**
 * Sends `request` and, while it fails with a transient error, sends it again after the policy's delay:
 * each attempt is a new request with a new JSON-RPC id (the engine issues one per request), the same
 * params (a 2026-07-28 retry round keeps its `requestState` and `inputResponses` byte for byte).
 * Stops on success, a non-transient error, `maxAttempts`, an aborted `signal`, or a closed connection;
 * the last error is the one thrown. A backoff delay ends early when `signal` aborts (its reason is
 * thrown) or the connection closes (`client.close()`: a `ConnectionClosedError` whose `cause` is the
 * last error), so neither waits up to `maxDelayMs` for a request that is over.
 */
export async function requestWithRetry(
  target: RetryTarget,
  policy: ResolvedRetryOptions,
  request: OutgoingRequest,
  schema: ZodSchema,
  options: RequestOptions | undefined,
): Promise<unknown> {
  const signal = options?.signal;
  for (let attempt = 0; ; attempt++) {
    try {
      return await target.request(request, schema, options);
    } catch (error) {
      if (attempt >= policy.maxAttempts || signal?.aborted === true || target.transport === undefined)
        throw error;
      if (!policy.isTransient(error)) throw error;
      const delayMs = delayFor(policy, attempt, error);
      if (delayMs === undefined) throw error;
      try {
        policy.onretry?.({ method: request.method, attempt: attempt + 1, delayMs, error });
      } catch {
        // A listener's fault must not change the request's outcome.
      }
      await backoff(target, delayMs, signal, error);
      await target.handshake;
    }
  }
}

/** Backoff with jitter, never below the server's `Retry-After`; undefined when that exceeds `maxDelayMs`. */
function delayFor(policy: ResolvedRetryOptions, attempt: number, error: unknown): number | undefined {
  const jittered = reconnectDelay(policy, attempt);
  const asked = retryAfterOf(error);
  if (asked === undefined) return jittered;
  return asked > policy.maxDelayMs ? undefined : Math.max(asked, jittered);
}

/** Waits `ms`; rejects early with `signal`'s reason, or a `ConnectionClosedError` when the connection closes. */
function backoff(
  target: RetryTarget,
  ms: number,
  signal: AbortSignal | undefined,
  last: unknown,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let unregister = (): void => {};
    const done = () => {
      clearTimeout(timer);
      unregister();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    unregister = target.onceClosed(() => {
      done();
      reject(
        new ConnectionClosedError('Connection closed while a retry waited out its backoff', { cause: last }),
      );
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
