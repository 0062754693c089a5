import { AuthError } from '../auth-error.js';
import { limitOption } from '../limit-option.js';

/** Default `maxRememberedProofs`: unexpired DPoP proof ids remembered in all, over every key. */
export const DEFAULT_MAX_REMEMBERED_DPOP_PROOFS = 100_000;
/** Default `maxProofsPerKey`: unexpired proof ids remembered per key (≈16 requests/s over 60 s). */
export const DEFAULT_MAX_DPOP_PROOFS_PER_KEY = 1_000;

/** Expired entries are swept at most this often (a sweep walks every entry). */
const SWEEP_INTERVAL_MS = 10_000;
/** When the cache is full, a sweep may run this often to find room. */
const FULL_SWEEP_INTERVAL_MS = 1_000;

/** Limits of a `DpopReplayCache`. */
export interface DpopReplayCacheOptions {
  /** Unexpired proof ids remembered in all. Default `DEFAULT_MAX_REMEMBERED_DPOP_PROOFS`. */
  maxRememberedProofs?: number | undefined;
  /** Unexpired proof ids remembered per key thumbprint. Default `DEFAULT_MAX_DPOP_PROOFS_PER_KEY`. */
  maxProofsPerKey?: number | undefined;
}

/**
 * The `jti`s of accepted DPoP proofs, for replay detection (RFC 9449 §11.1), partitioned by the key
 * thumbprint (`jkt`) that signed them. An entry lives until its proof's `iat` window closes, after
 * which the proof is refused for its age anyway. Only the holder of a key can add entries under it
 * (the proof is checked first), so no caller can push out another's: when a partition or the whole
 * cache is full of unexpired entries, a new proof is refused (`replay_cache_full`, answered 503) —
 * forgetting an unexpired entry would make its proof replayable.
 *
 * @example
 * ```ts
 * const cache = new DpopReplayCache({ maxProofsPerKey: 100 });
 * cache.remember({ jkt, jti, expiresAt: (iat + 60) * 1000 }); // true: first use; false: a replay
 * ```
 */
export class DpopReplayCache {
  readonly #maxTotal: number;
  readonly #maxPerKey: number;
  /** jkt → jti → expiry (ms since epoch). */
  readonly #byKey = new Map<string, Map<string, number>>();
  #size = 0;
  #nextSweep = 0;
  #nextFullSweep = 0;

  constructor(options: DpopReplayCacheOptions = {}) {
    const rule = { min: 1, integer: true };
    this.#maxTotal = limitOption(
      'dpop.maxRememberedProofs',
      options.maxRememberedProofs,
      DEFAULT_MAX_REMEMBERED_DPOP_PROOFS,
      rule,
    );
    this.#maxPerKey = limitOption(
      'dpop.maxProofsPerKey',
      options.maxProofsPerKey,
      DEFAULT_MAX_DPOP_PROOFS_PER_KEY,
      rule,
    );
  }

  /**
   * Records a proof's `jti` under its key until `expiresAt` (ms). Returns false for a replay (seen and
   * unexpired). Throws `AuthError('replay_cache_full')` when there is no room without forgetting an
   * unexpired entry.
   */
  remember(entry: { jkt: string; jti: string; expiresAt: number }, now = Date.now()): boolean {
    if (now >= this.#nextSweep) this.#sweep(now);
    let seen = this.#byKey.get(entry.jkt);
    const expiry = seen?.get(entry.jti);
    if (expiry !== undefined && expiry > now) return false;
    if (seen !== undefined && seen.size >= this.#maxPerKey) this.#sweepKey(entry.jkt, seen, now);
    if (seen !== undefined && seen.size >= this.#maxPerKey)
      throw new AuthError(
        'replay_cache_full',
        `this DPoP key has ${this.#maxPerKey} unexpired proofs (dpop.maxProofsPerKey); try again later`,
      );
    if (this.#size >= this.#maxTotal && now >= this.#nextFullSweep) {
      this.#nextFullSweep = now + FULL_SWEEP_INTERVAL_MS;
      this.#sweep(now);
    }
    if (this.#size >= this.#maxTotal)
      throw new AuthError(
        'replay_cache_full',
        `the DPoP replay cache holds ${this.#maxTotal} unexpired proofs (dpop.maxRememberedProofs); try again later`,
      );
    // A sweep above may have dropped this key's (emptied) partition.
    seen = this.#byKey.get(entry.jkt);
    if (seen === undefined) {
      seen = new Map();
      this.#byKey.set(entry.jkt, seen);
    }
    if (!seen.has(entry.jti)) this.#size += 1;
    seen.set(entry.jti, entry.expiresAt);
    return true;
  }

  #sweep(now: number): void {
    this.#nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [jkt, seen] of this.#byKey) this.#sweepKey(jkt, seen, now);
  }

  #sweepKey(jkt: string, seen: Map<string, number>, now: number): void {
    for (const [jti, expiry] of seen) {
      if (expiry > now) continue;
      seen.delete(jti);
      this.#size -= 1;
    }
    if (seen.size === 0) this.#byKey.delete(jkt);
  }
}
