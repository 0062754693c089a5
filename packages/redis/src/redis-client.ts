import type { createClient } from 'redis';

/**
 * A node-redis (v5) client as `createClient()` returns it, connected by the caller. Every store of this
 * package takes one; the message bus also makes a `duplicate()` of it for its subscriptions (a Redis
 * connection in subscriber mode runs nothing else).
 *
 * @example
 * ```ts
 * const client: RedisClient = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export type RedisClient = ReturnType<typeof createClient>;

/**
 * What every store of this package takes: the client and the prefix of its keys and channels.
 *
 * @example
 * ```ts
 * const options: RedisStoreOptions = { client, prefix: 'mcp:files:' };
 * ```
 */
export interface RedisStoreOptions {
  client: RedisClient;
  /** Prefix of every key and pub/sub channel, so several endpoints share one Redis. Default `'mcp:'`. */
  prefix?: string | undefined;
}

export const DEFAULT_PREFIX = 'mcp:';

/** Longest id (session, stream, task) the stores put into a key; a longer one names nothing. */
export const MAX_KEY_ID_LENGTH = 256;

// No `:` (the separator of this package's key names), no `{` `}` (Redis Cluster hash tags), no control
// characters: an id without them can only ever name its own key.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const KEY_SAFE_ID = /^[^:{}\x00-\x1f\x7f]+$/;

/**
 * Whether `id` may become part of a key: an id from a request header (`Mcp-Session-Id`, `Last-Event-ID`)
 * or a request (`taskId`) must not name another key, such as `<session>:subs` (issue #35, finding 12).
 * Package-internal.
 */
export function isKeySafe(id: string): boolean {
  return id.length <= MAX_KEY_ID_LENGTH && KEY_SAFE_ID.test(id);
}

/** A write under an id that `isKeySafe` refuses: a programming error (the id came from this process). */
export function unsafeId(kind: string, id: string): TypeError {
  return new TypeError(
    `${kind} id ${JSON.stringify(id.slice(0, 40))} cannot be a Redis key: no ':', '{', '}' or control characters, at most ${MAX_KEY_ID_LENGTH} characters`,
  );
}
