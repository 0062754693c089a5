import type { Era } from '@x/protocol/core';

/**
 * What the client learned about a server's era (2026-07-28 basic/versioning, "Backward Compatibility").
 *
 * @example
 * ```ts
 * const cache = new InMemoryEraCache();
 * const record: EraRecord = { era: 'legacy', protocolVersion: '2025-06-18' };
 * cache.set('https://mcp.example.com/mcp', record);
 * ```
 */
export interface EraRecord {
  readonly era: Era;
  readonly protocolVersion: string;
}

/**
 * Where era decisions are remembered, keyed by connection target (e.g. the server URL or command line).
 * "Clients SHOULD cache the result for the lifetime of the server process (stdio) or origin (HTTP), and
 * MAY persist it across restarts", so a persistent store can be plugged in.
 *
 * @example
 * ```ts
 * const store: EraCache = {
 *   get: (key) => JSON.parse(localStorage.getItem(`mcp-era:${key}`) ?? 'null') ?? undefined,
 *   set: (key, record) => localStorage.setItem(`mcp-era:${key}`, JSON.stringify(record)),
 *   delete: (key) => localStorage.removeItem(`mcp-era:${key}`),
 * };
 * const client = new Client({ name: 'app', version: '1.0.0' }, { eraCache: store });
 * ```
 */
export interface EraCache {
  get(key: string): EraRecord | undefined | Promise<EraRecord | undefined>;
  set(key: string, record: EraRecord): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/**
 * The default `EraCache`: a Map, one per `Client`.
 *
 * @example
 * ```ts
 * const shared = new InMemoryEraCache();
 * const a = new Client(info, { eraCache: shared });
 * const b = new Client(info, { eraCache: shared });
 * ```
 */
export class InMemoryEraCache implements EraCache {
  readonly #records = new Map<string, EraRecord>();

  get(key: string): EraRecord | undefined {
    return this.#records.get(key);
  }

  set(key: string, record: EraRecord): void {
    this.#records.set(key, record);
  }

  delete(key: string): void {
    this.#records.delete(key);
  }
}
