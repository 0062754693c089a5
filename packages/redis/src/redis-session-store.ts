import { DEFAULT_SESSION_IDLE_TIMEOUT_MS, type SessionRecord, type SessionStore } from '@x/protocol';
import {
  DEFAULT_PREFIX,
  isKeySafe,
  type RedisClient,
  type RedisStoreOptions,
  unsafeId,
} from './redis-client.js';

/**
 * Options for {@link RedisSessionStore}.
 *
 * @example
 * ```ts
 * new RedisSessionStore({ client, idleTimeoutMs: 10 * 60_000 });
 * ```
 */
export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /** A session no process used for this long expires (its keys' TTL, renewed on use). Default `DEFAULT_SESSION_IDLE_TIMEOUT_MS` (30 min). */
  idleTimeoutMs?: number | undefined;
}

/** Fields held as JSON (objects); the others are plain strings. */
const JSON_FIELDS = new Set<string>(['clientInfo', 'clientCapabilities']);
/** Always present, so a session whose other fields are all unset still exists. */
const CREATED = 'createdAt';

/**
 * A {@link SessionStore} on Redis: one hash per session (`<prefix>session:{<id>}`) and a set of its
 * resource subscriptions (`<prefix>session:{<id>}:subs`), both expiring after `idleTimeoutMs` without
 * use. The hash tag `{<id>}` puts both keys in one Redis Cluster slot, so the transactions that touch
 * both stay single-slot. Every process of a
 * cluster reads a session here the first time one of its requests lands there (no sticky sessions).
 *
 * @example
 * ```ts
 * const sessionStore = new RedisSessionStore({ client });
 * const server = new McpServer(info, { sessionStore });
 * const handler = createStreamableHttpHandler({ onsession: (t) => server.connect(t), sessionStore });
 * ```
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(options: RedisSessionStoreOptions) {
    this.#client = options.client;
    this.#prefix = `${options.prefix ?? DEFAULT_PREFIX}session:`;
    this.#ttlMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  }

  async create(sessionId: string, record: SessionRecord): Promise<void> {
    if (!isKeySafe(sessionId)) throw unsafeId('Session', sessionId);
    const key = this.#key(sessionId);
    await this.#client
      .multi()
      .del([key, `${key}:subs`])
      .hSet(key, { ...encode(record), [CREATED]: String(Date.now()) })
      .pExpire(key, this.#ttlMs)
      .exec();
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    // An id that could name another key (`<id>:subs`) names no session (the transport answers 404).
    if (!isKeySafe(sessionId)) return undefined;
    const key = this.#key(sessionId);
    const replies = await this.#client
      .multi()
      .hGetAll(key)
      .pExpire(key, this.#ttlMs)
      .pExpire(`${key}:subs`, this.#ttlMs)
      .exec();
    const fields = replies[0] as unknown as Record<string, string>;
    if (fields[CREATED] === undefined) return undefined;
    return decode(fields);
  }

  async update(sessionId: string, patch: SessionRecord): Promise<boolean> {
    if (!isKeySafe(sessionId)) return false;
    const key = this.#key(sessionId);
    const fields = encode(patch);
    // EXISTS first in the same transaction: a patch must not resurrect an expired session.
    const alive = await this.#client.pExpire(key, this.#ttlMs);
    if (Number(alive) !== 1) return false;
    const multi = this.#client.multi().pExpire(`${key}:subs`, this.#ttlMs);
    if (Object.keys(fields).length > 0) multi.hSet(key, fields);
    await multi.exec();
    return true;
  }

  async subscriptions(sessionId: string): Promise<string[]> {
    if (!isKeySafe(sessionId)) return [];
    return this.#client.sMembers(`${this.#key(sessionId)}:subs`);
  }

  async addSubscription(sessionId: string, uri: string): Promise<void> {
    if (!isKeySafe(sessionId)) return;
    const key = `${this.#key(sessionId)}:subs`;
    await this.#client.multi().sAdd(key, uri).pExpire(key, this.#ttlMs).exec();
  }

  async removeSubscription(sessionId: string, uri: string): Promise<void> {
    if (!isKeySafe(sessionId)) return;
    await this.#client.sRem(`${this.#key(sessionId)}:subs`, uri);
  }

  async delete(sessionId: string): Promise<void> {
    if (!isKeySafe(sessionId)) return;
    const key = this.#key(sessionId);
    await this.#client.del([key, `${key}:subs`]);
  }

  /** The session's hash; `{<id>}` is its hash tag, shared with `…:subs` (an id holds no `{` `}`). */
  #key(sessionId: string): string {
    return `${this.#prefix}{${sessionId}}`;
  }
}

function encode(record: SessionRecord): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    fields[name] = JSON_FIELDS.has(name) ? JSON.stringify(value) : String(value);
  }
  return fields;
}

function decode(fields: Record<string, string>): SessionRecord {
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === CREATED) continue;
    record[name] = JSON_FIELDS.has(name) ? JSON.parse(value) : value;
  }
  return record as SessionRecord;
}
