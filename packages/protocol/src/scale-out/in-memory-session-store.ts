import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS } from '../transports/limit-defaults.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/**
 * Options for {@link InMemorySessionStore}.
 *
 * @example
 * ```ts
 * new InMemorySessionStore({ idleTimeoutMs: 10 * 60_000, maxSessions: 50_000 });
 * ```
 */
export interface InMemorySessionStoreOptions {
  /** A session untouched for this long is forgotten. Default 30 min (`DEFAULT_SESSION_IDLE_TIMEOUT_MS`). */
  idleTimeoutMs?: number | undefined;
  /** Sessions held at most; the least recently used goes first. Default 10 000 (`DEFAULT_MAX_SESSIONS`). */
  maxSessions?: number | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

interface Entry {
  record: SessionRecord;
  subscriptions: Set<string> | undefined;
  touchedAt: number;
}

/**
 * The process-local {@link SessionStore}: a map in least-recently-used order, bounded by count and idle
 * time (expired entries are dropped when read, and the oldest when full). Useful to run several handlers
 * in one process as if they were a cluster, and as the reference behaviour a shared store must match.
 *
 * @example
 * ```ts
 * const sessionStore = new InMemorySessionStore();
 * const a = createStreamableHttpHandler({ onsession, sessionStore, messageBus });
 * const b = createStreamableHttpHandler({ onsession, sessionStore, messageBus }); // serves a's sessions too
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #idleMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#idleMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
    this.#max = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#now = options.now ?? Date.now;
  }

  /** Sessions held (expired ones included until they are read). */
  get size(): number {
    return this.#entries.size;
  }

  async create(sessionId: string, record: SessionRecord): Promise<void> {
    this.#entries.delete(sessionId);
    this.#entries.set(sessionId, {
      record: defined(record, {}),
      subscriptions: undefined,
      touchedAt: this.#now(),
    });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const entry = this.#live(sessionId);
    return entry === undefined ? undefined : { ...entry.record };
  }

  async update(sessionId: string, patch: SessionRecord): Promise<boolean> {
    const entry = this.#live(sessionId);
    if (entry === undefined) return false;
    entry.record = defined(patch, { ...entry.record });
    return true;
  }

  async subscriptions(sessionId: string): Promise<string[]> {
    return [...(this.#live(sessionId)?.subscriptions ?? [])];
  }

  async addSubscription(sessionId: string, uri: string): Promise<void> {
    const entry = this.#live(sessionId);
    if (entry === undefined) return;
    entry.subscriptions ??= new Set();
    entry.subscriptions.add(uri);
  }

  async removeSubscription(sessionId: string, uri: string): Promise<void> {
    this.#live(sessionId)?.subscriptions?.delete(uri);
  }

  async delete(sessionId: string): Promise<void> {
    this.#entries.delete(sessionId);
  }

  /** The entry, its idle clock reset and moved to the back; undefined (and dropped) once expired. */
  #live(sessionId: string): Entry | undefined {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return undefined;
    const now = this.#now();
    this.#entries.delete(sessionId);
    if (now - entry.touchedAt > this.#idleMs) return undefined;
    entry.touchedAt = now;
    this.#entries.set(sessionId, entry);
    return entry;
  }
}

/** Copies the defined fields of `patch` onto `into` (a patch's undefined means "leave as is"). */
function defined(patch: SessionRecord, into: SessionRecord): SessionRecord {
  for (const key of Object.keys(patch) as Array<keyof SessionRecord>) {
    const value = patch[key];
    if (value !== undefined) (into as Record<string, unknown>)[key] = value;
  }
  return into;
}
