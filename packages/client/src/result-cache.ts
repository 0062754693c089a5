import { isRetriedResult } from './modern/input-round-trips.js';

interface Entry {
  readonly result: object;
  readonly expiresAt: number;
}

/**
 * Cacheable results of 2026-07-28 (server/utilities/caching): `tools/list`, `prompts/list`,
 * `resources/list`, `resources/templates/list` (per cursor) and `resources/read` (per uri), fresh while
 * `now < received + ttlMs`. Absent or zero `ttlMs` (every legacy result) is never stored. One cache per
 * client and connection, so `cacheScope: "private"` entries never leave their authorization context.
 */
export class ResultCache {
  readonly #entries = new Map<string, Entry>();

  /** The cache key; undefined for requests that must not be cached (retries carrying input). */
  static keyOf(
    method: string,
    discriminator: string | undefined,
    params: object | undefined,
  ): string | undefined {
    if (params !== undefined && ('inputResponses' in params || 'requestState' in params)) return undefined;
    return `${method}\n${discriminator ?? ''}`;
  }

  get(key: string | undefined): object | undefined {
    if (key === undefined) return undefined;
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (Date.now() < entry.expiresAt) return entry.result;
    this.#entries.delete(key);
    return undefined;
  }

  store(key: string | undefined, result: { ttlMs?: number | undefined }): void {
    const ttl = result.ttlMs;
    if (key === undefined || ttl === undefined || !(ttl > 0) || isRetriedResult(result)) return;
    this.#entries.set(key, { result, expiresAt: Date.now() + ttl });
  }

  /** Drops every entry of `method` (a list_changed), or the one for `discriminator` (a resource update). */
  invalidate(method: string, discriminator?: string): void {
    if (discriminator !== undefined) {
      this.#entries.delete(`${method}\n${discriminator}`);
      return;
    }
    const prefix = `${method}\n`;
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
