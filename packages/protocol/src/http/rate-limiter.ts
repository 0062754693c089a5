/**
 * Token buckets keyed by caller: how the network servers bound how fast one caller (its principal, else
 * its remote address) may open sessions or connections, so a flood of anonymous `initialize` calls
 * cannot churn the session table.
 */

/**
 * Options of a {@link RateLimiter}.
 *
 * @example
 * ```ts
 * const options: RateLimiterOptions = { perSecond: 5, burst: 20, maxKeys: 50_000 };
 * ```
 */
export interface RateLimiterOptions {
  /** Tokens one key regains per second. Default 10. */
  perSecond?: number | undefined;
  /** Tokens one key holds at most (and starts with). Default 50. */
  burst?: number | undefined;
  /**
   * Keys tracked at once; past it the longest-untouched key is forgotten (it starts again with a full
   * bucket). Bounds memory whatever callers send. Default 10,000.
   */
  maxKeys?: number | undefined;
  /** Clock in milliseconds; for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Defaults of {@link RateLimiterOptions}: 10 per second with bursts of 50, for 10,000 callers.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMIT, perSecond: 2 });
 * ```
 */
export const DEFAULT_RATE_LIMIT = { perSecond: 10, burst: 50, maxKeys: 10_000 } as const;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token-bucket rate limiting per key, in bounded memory. `take(key)` spends one token and answers 0, or,
 * when the key's bucket is empty, spends nothing and answers how many milliseconds until a token is back
 * (what a `Retry-After` header should say, rounded up to seconds).
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter({ perSecond: 1, burst: 5 });
 * const waitMs = limiter.take(principal ?? remoteAddress);
 * if (waitMs > 0) return new Response('slow down', { status: 429, headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } });
 * ```
 */
export class RateLimiter {
  readonly perSecond: number;
  readonly burst: number;
  readonly maxKeys: number;
  readonly #now: () => number;
  /** Insertion order is last-touched order: a touched key is deleted and set again. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimiterOptions = {}) {
    this.perSecond = positive(options.perSecond ?? DEFAULT_RATE_LIMIT.perSecond, 'perSecond');
    this.burst = positive(options.burst ?? DEFAULT_RATE_LIMIT.burst, 'burst');
    this.maxKeys = positive(options.maxKeys ?? DEFAULT_RATE_LIMIT.maxKeys, 'maxKeys');
    this.#now = options.now ?? Date.now;
  }

  /** Spends a token of `key`: 0 when one was there, else the milliseconds until one will be. */
  take(key: string): number {
    const now = this.#now();
    const bucket = this.#buckets.get(key);
    let tokens = this.burst;
    if (bucket !== undefined) {
      this.#buckets.delete(key);
      tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond);
    } else if (this.#buckets.size >= this.maxKeys) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done !== true) this.#buckets.delete(oldest.value);
    }
    if (tokens >= 1) {
      this.#buckets.set(key, { tokens: tokens - 1, updatedAt: now });
      return 0;
    }
    this.#buckets.set(key, { tokens, updatedAt: now });
    return Math.max(1, Math.ceil(((1 - tokens) / this.perSecond) * 1000));
  }

  /** Keys tracked now (at most `maxKeys`). */
  get size(): number {
    return this.#buckets.size;
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`RateLimiter: ${name} must be a positive finite number, got ${value}`);
  }
  return value;
}
