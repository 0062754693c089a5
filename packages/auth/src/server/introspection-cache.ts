import { limitOption } from '../limit-option.js';

/** Default `cache.ttlSec`: how long an active answer is reused (never past the token's `exp`). */
export const DEFAULT_INTROSPECTION_CACHE_TTL_SEC = 30;
/** Default `cache.negativeTtlSec`: how long an inactive answer is reused. */
export const DEFAULT_INTROSPECTION_NEGATIVE_TTL_SEC = 5;
/** Default `cache.maxEntries`: answers kept, for active and for inactive tokens each. */
export const DEFAULT_INTROSPECTION_CACHE_MAX_ENTRIES = 10_000;

/** Options of the introspection answer cache. */
export interface IntrospectionCacheOptions {
  /**
   * Seconds an active answer is reused, capped by the token's `exp`. A revoked token stays accepted
   * this long at most. Default `DEFAULT_INTROSPECTION_CACHE_TTL_SEC` (30).
   */
  ttlSec?: number | undefined;
  /** Seconds an inactive answer is reused; 0 for none. Default `DEFAULT_INTROSPECTION_NEGATIVE_TTL_SEC` (5). */
  negativeTtlSec?: number | undefined;
  /**
   * Answers kept, for active and for inactive tokens separately (so a flood of bad tokens cannot push
   * out good ones); the oldest goes first. Default `DEFAULT_INTROSPECTION_CACHE_MAX_ENTRIES` (10 000).
   */
  maxEntries?: number | undefined;
}

type Entry = { claims: Record<string, unknown> | undefined; until: number };

/**
 * Introspection answers by token digest (never the token itself), bounded in count and time: an
 * active answer until `min(now + ttlSec, exp)`, an inactive one for `negativeTtlSec`.
 *
 * @example
 * ```ts
 * const cache = new IntrospectionCache({ ttlSec: 10 });
 * cache.set(key, claims, Date.now());
 * cache.get(key, Date.now()); // { claims } while fresh, { claims: undefined } for an inactive token
 * ```
 */
export class IntrospectionCache {
  readonly #ttlMs: number;
  readonly #negativeTtlMs: number;
  readonly #max: number;
  readonly #active = new Map<string, Entry>();
  readonly #inactive = new Map<string, Entry>();

  constructor(options: IntrospectionCacheOptions = {}) {
    const seconds = { min: 0 };
    this.#ttlMs =
      limitOption(
        'introspection cache.ttlSec',
        options.ttlSec,
        DEFAULT_INTROSPECTION_CACHE_TTL_SEC,
        seconds,
      ) * 1000;
    this.#negativeTtlMs =
      limitOption(
        'introspection cache.negativeTtlSec',
        options.negativeTtlSec,
        DEFAULT_INTROSPECTION_NEGATIVE_TTL_SEC,
        seconds,
      ) * 1000;
    this.#max = limitOption(
      'introspection cache.maxEntries',
      options.maxEntries,
      DEFAULT_INTROSPECTION_CACHE_MAX_ENTRIES,
      { min: 0, integer: true },
    );
  }

  /** A fresh answer: `claims` of an active token, `undefined` claims for an inactive one. */
  get(key: string, now: number): Pick<Entry, 'claims'> | undefined {
    for (const map of [this.#active, this.#inactive]) {
      const entry = map.get(key);
      if (entry === undefined) continue;
      if (entry.until > now) return entry;
      map.delete(key);
    }
    return undefined;
  }

  /** Keeps an answer: the claims of an active token (with its `exp`, in seconds), or `undefined`. */
  set(key: string, claims: Record<string, unknown> | undefined, now: number): void {
    const exp = claims?.['exp'];
    const until =
      claims === undefined
        ? now + this.#negativeTtlMs
        : Math.min(now + this.#ttlMs, typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY);
    if (until <= now || this.#max <= 0) return;
    const map = claims === undefined ? this.#inactive : this.#active;
    map.delete(key);
    if (map.size >= this.#max) {
      const oldest = map.keys().next();
      if (oldest.done !== true) map.delete(oldest.value);
    }
    map.set(key, { claims, until });
  }
}
