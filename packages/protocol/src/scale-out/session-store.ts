import type { ClientCapabilities } from '../schemas/capabilities.js';
import type { Implementation, LoggingLevel } from '../schemas/index.js';

/**
 * The shared state of one legacy session (2024-11-05 … 2025-11-25), as a `SessionStore` keeps it. The
 * HTTP transport writes the transport fields (`principal`, `streamTag`, `owner`) when it opens the
 * session; the server writes the handshake fields once `initialize` is answered and `logLevel` on
 * `logging/setLevel`. Resource subscriptions are kept apart (`addSubscription`), being a set.
 *
 * @example
 * ```ts
 * const record: SessionRecord = {
 *   principal: 'client-1:alice',
 *   streamTag: '9f2c41d07a3b',
 *   owner: 'web-2',
 *   protocolVersion: '2025-11-25',
 *   clientInfo: { name: 'inspector', version: '1.0.0' },
 *   clientCapabilities: { sampling: {} },
 *   logLevel: 'info',
 * };
 * ```
 */
export interface SessionRecord {
  /** Who opened the session (the transport's `sessionPrincipal`); undefined for an anonymous one. */
  principal?: string | undefined;
  /** Prefix of the session's event-stream ids, the same on every process (resumption checks it). */
  streamTag?: string | undefined;
  /** The process that opened (or last adopted) the session: an opaque id such as a host name. */
  owner?: string | undefined;
  /** The negotiated version, once `initialize` was answered. */
  protocolVersion?: string | undefined;
  clientInfo?: Implementation | undefined;
  clientCapabilities?: ClientCapabilities | undefined;
  /** The lowest level the client asked for with `logging/setLevel`. */
  logLevel?: LoggingLevel | undefined;
}

/**
 * Where legacy sessions live when more than one process serves them: any process that receives a
 * request of a session it has never seen reads the session here and serves it (no sticky sessions,
 * DESIGN §9). Every call that names a live session refreshes its idle clock; a session unused for the
 * store's idle timeout disappears on its own. `InMemorySessionStore` is the one-process default;
 * `@x/redis` keeps sessions in Redis hashes.
 *
 * @example
 * ```ts
 * const sessionStore = new InMemorySessionStore({ idleTimeoutMs: 30 * 60_000 });
 * await sessionStore.create('s-1', { principal: 'alice', owner: 'web-1' });
 * await sessionStore.update('s-1', { protocolVersion: '2025-11-25', logLevel: 'info' });
 * const record = await sessionStore.get('s-1'); // { principal: 'alice', owner: 'web-1', protocolVersion: … }
 * ```
 */
export interface SessionStore {
  /** Records a new session (replacing any record of that id). */
  create(sessionId: string, record: SessionRecord): Promise<void>;
  /** The session's record, or undefined when it is unknown, deleted or expired. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Merges fields into a live session's record (undefined values are left out); false when it is gone. */
  update(sessionId: string, patch: SessionRecord): Promise<boolean>;
  /** The session's resource subscriptions (legacy `resources/subscribe`), in no particular order. */
  subscriptions(sessionId: string): Promise<string[]>;
  addSubscription(sessionId: string, uri: string): Promise<void>;
  removeSubscription(sessionId: string, uri: string): Promise<void>;
  /** Forgets the session and its subscriptions (DELETE, or the session ended). */
  delete(sessionId: string): Promise<void>;
}
