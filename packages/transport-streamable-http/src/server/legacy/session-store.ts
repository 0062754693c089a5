import type { LegacySessionTransport } from './session-transport.js';

/** Options for {@link SessionStore}. */
export interface SessionStoreOptions {
  idleTimeoutMs: number;
  maxSessions: number;
}

/**
 * The live legacy sessions of one handler, bounded two ways so clients that vanish without DELETE cannot
 * leak memory: an idle timeout (a sweep closes sessions unused for that long) and a maximum count (a new
 * session evicts the least recently used one). Neither touches a busy session (a GET stream open or a
 * request in flight, see `LegacySessionTransport.busy`): evicting one would end its streams with no
 * answer, so anyone could empty the table with cheap `initialize` calls (issue #24, item 2). When every
 * session is busy, `makeRoom` says no and the handler refuses the new one (503). The map is kept in
 * least-recently-used order by re-inserting on every use, so eviction is O(1) while the oldest are idle.
 * Closed sessions answer 404 (2025-11-25 "Session Management" 3).
 */
export class SessionStore {
  #sessions = new Map<string, LegacySessionTransport>();
  /**
   * The session last in `#sessions` (most recently used), if known: using it again changes no order, so
   * it is not re-inserted. A client's requests on one session then cost no delete + set each (a `Map`
   * churned that way allocates a new table every few requests).
   */
  #newest: LegacySessionTransport | undefined;
  #options: SessionStoreOptions;
  #sweep: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The session, marked as just used; undefined when unknown, expired or closed. */
  get(id: string): LegacySessionTransport | undefined {
    const session = this.find(id);
    if (session !== undefined) this.markUsed(session);
    return session;
  }

  /**
   * The session without marking it used (a request of another principal, refused with 403, must not
   * keep someone else's session alive); undefined when unknown, expired or closed.
   */
  find(id: string): LegacySessionTransport | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    if (session.closed || this.#expired(session, Date.now())) {
      this.#remove(session);
      if (!session.closed) void session.close();
      return undefined;
    }
    return session;
  }

  /** Marks a session found with `find` as just used (most recent for eviction, idle clock reset). */
  markUsed(session: LegacySessionTransport): void {
    if (session !== this.#newest) {
      this.#sessions.delete(session.sessionId);
      this.#sessions.set(session.sessionId, session);
      this.#newest = session;
    }
    session.lastActivity = Date.now();
  }

  /** The most sessions held at once (`maxSessions`). */
  get maxSessions(): number {
    return this.#options.maxSessions;
  }

  /**
   * Makes room for one more session by closing the least recently used idle ones; false when the table
   * is full of busy sessions (nothing is closed then).
   */
  makeRoom(): boolean {
    if (this.#sessions.size < this.#options.maxSessions) return true;
    for (const session of this.#sessions.values()) {
      if (session.busy && !session.closed) continue;
      this.#remove(session);
      if (!session.closed) void session.close();
      if (this.#sessions.size < this.#options.maxSessions) return true;
    }
    return false;
  }

  /** Adds a session; call `makeRoom` first (a full table of busy sessions is allowed to overflow here). */
  add(session: LegacySessionTransport): void {
    this.#sessions.set(session.sessionId, session);
    this.#newest = session;
    this.#startSweep();
  }

  /** Drops a session that finished (closed), for its `onFinished`: one function for every session. */
  readonly forget = (session: LegacySessionTransport): void => {
    this.delete(session.sessionId);
  };

  delete(id: string): void {
    const session = this.#sessions.get(id);
    if (session !== undefined) this.#remove(session);
    if (this.#sessions.size === 0) this.#stopSweep();
  }

  #remove(session: LegacySessionTransport): void {
    this.#sessions.delete(session.sessionId);
    if (session === this.#newest) this.#newest = undefined;
  }

  /** The live sessions (e.g. for `drain()` to hand their GET streams over). */
  values(): IterableIterator<LegacySessionTransport> {
    return this.#sessions.values();
  }

  /** Closes every session (graceful shutdown). */
  async closeAll(): Promise<void> {
    this.#stopSweep();
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#newest = undefined;
    await Promise.all(sessions.map((s) => s.close()));
  }

  #expired(session: LegacySessionTransport, now: number): boolean {
    return !session.busy && now - session.lastActivity > this.#options.idleTimeoutMs;
  }

  #startSweep(): void {
    if (this.#sweep !== undefined) return;
    const every = Math.max(10, Math.min(this.#options.idleTimeoutMs / 2, 60_000));
    this.#sweep = setInterval(() => {
      const now = Date.now();
      for (const session of [...this.#sessions.values()]) {
        // LRU order: once one session is fresh, every later one is too.
        if (now - session.lastActivity <= this.#options.idleTimeoutMs) break;
        if (this.#expired(session, now)) {
          this.#remove(session);
          void session.close();
        }
      }
      if (this.#sessions.size === 0) this.#stopSweep();
    }, every);
    // The sweep must never keep a process alive by itself.
    (this.#sweep as { unref?: () => void }).unref?.();
  }

  #stopSweep(): void {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    this.#sweep = undefined;
  }
}
