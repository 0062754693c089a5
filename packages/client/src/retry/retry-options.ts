import { type ReconnectOptions, type ResolvedReconnectOptions, resolveReconnect } from '@x/protocol/core';
import { isSafeToRepeat, type RetryRequest } from './safe-to-repeat.js';
import { isTransientError } from './transient-error.js';

/**
 * What `onretry` is told before each new attempt.
 *
 * @example
 * ```ts
 * const onretry = ({ method, attempt, delayMs, error }: RetryEvent) =>
 *   console.warn(`${method}: attempt ${attempt + 1} in ${delayMs} ms after ${String(error)}`);
 * ```
 */
export interface RetryEvent {
  readonly method: string;
  /** Retries so far, this one included (1 for the first retry). */
  readonly attempt: number;
  readonly delayMs: number;
  /** What the previous attempt failed with. */
  readonly error: unknown;
}

/**
 * The request retry policy of `new Client(info, { retry })` and of one request (`{ retry }` in its
 * options). The backoff fields are `ReconnectOptions` (one vocabulary with the transports' `reconnect`):
 * `maxAttempts` retries after the first try, each delay `initialDelayMs × factor^n` capped at
 * `maxDelayMs`, with full jitter by default (`jitter: 1`, a delay drawn from [0, that]). A server's
 * `Retry-After` (429/503) is waited at least; one longer than `maxDelayMs` ends the retries.
 *
 * @example
 * ```ts
 * const client = new Client(info, {
 *   retry: { maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 5_000, onretry: (e) => log.warn(e) },
 * });
 * await client.callTool({ name: 'charge', arguments }, { retry: false }); // never repeated
 * await client.callTool({ name: 'upsert', arguments }, { retry: true }); // repeatable: the caller says so
 * ```
 */
export interface RetryOptions extends ReconnectOptions {
  /**
   * Which failures may go away on a new attempt. Default `isTransientError`: transport loss, timeouts,
   * HTTP 429/502/503/504, -32000 connection errors.
   */
  isTransient?: ((error: unknown) => boolean) | undefined;
  /**
   * Which requests may be sent twice (client-level policy only; a per-request `retry` says yes itself).
   * Default `isSafeToRepeat`: reads and lists, and `tools/call` of tools the last `tools/list` annotated
   * `readOnlyHint` or `idempotentHint`.
   */
  isRepeatable?: ((request: RetryRequest, toolHint: boolean) => boolean) | undefined;
  /** Called before each retry (for logs and metrics); throwing here is ignored. */
  onretry?: ((event: RetryEvent) => void) | undefined;
}

/** A policy with every field set. */
export interface ResolvedRetryOptions extends ResolvedReconnectOptions {
  readonly isTransient: (error: unknown) => boolean;
  readonly isRepeatable: (request: RetryRequest, toolHint: boolean) => boolean;
  readonly onretry: ((event: RetryEvent) => void) | undefined;
}

/**
 * The retry defaults: 3 retries, 200 ms doubling up to 10 s, full jitter.
 *
 * @example
 * ```ts
 * new Client(info, { retry: { ...RETRY_DEFAULTS, maxAttempts: 8 } });
 * ```
 */
export const RETRY_DEFAULTS: ResolvedReconnectOptions = Object.freeze({
  initialDelayMs: 200,
  maxDelayMs: 10_000,
  factor: 2,
  maxAttempts: 3,
  jitter: 1,
});

/** `true` → defaults, `false`/`undefined` → no policy, an object → defaults overridden (`base` first). */
export function resolveRetry(
  option: boolean | RetryOptions | undefined,
  base?: ResolvedRetryOptions,
): ResolvedRetryOptions | undefined {
  if (option === false || option === undefined) return undefined;
  if (option === true) return base ?? resolveRetry({});
  const backoff = resolveReconnect(option, base ?? RETRY_DEFAULTS, true)!;
  return {
    ...backoff,
    isTransient: option.isTransient ?? base?.isTransient ?? isTransientError,
    isRepeatable: option.isRepeatable ?? base?.isRepeatable ?? isSafeToRepeat,
    onretry: option.onretry ?? base?.onretry,
  };
}
