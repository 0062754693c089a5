import type { createClient, createCluster, createSentinel } from 'redis';

/**
 * A node-redis (v5) client of one Redis server, as `createClient()` returns it.
 *
 * @example
 * ```ts
 * const client: RedisNodeClient = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export type RedisNodeClient = ReturnType<typeof createClient>;

/**
 * A node-redis (v5) Redis Cluster client, as `createCluster()` returns it: it follows each key to the
 * primary of its slot.
 *
 * @example
 * ```ts
 * const client: RedisClusterClient = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:6379' }] }).connect();
 * ```
 */
export type RedisClusterClient = ReturnType<typeof createCluster>;

/**
 * A node-redis (v5) client of a Sentinel-managed primary, as `createSentinel()` (or
 * `connectRedisSentinel`) returns it: it asks the sentinels where the primary is, and follows a
 * promotion.
 *
 * @example
 * ```ts
 * const client: RedisSentinelClient = await createSentinel({ name: 'mymaster', sentinelRootNodes }).connect();
 * ```
 */
export type RedisSentinelClient = ReturnType<typeof createSentinel>;

/**
 * What every class of this package takes, connected by the caller: a client of one Redis server
 * (`createClient`, or `connectRedis`), of a Redis Cluster (`createCluster`, or `connectRedisCluster`), or of
 * a Sentinel-managed primary (`createSentinel`, or `connectRedisSentinel`). Every multi-key step
 * and script stays in one slot (see the README's key layout), so both run the same commands. The
 * message bus also makes a `duplicate()` of it for its subscriptions (a connection in subscriber mode
 * runs nothing else).
 *
 * @example
 * ```ts
 * const client: RedisClient = await createCluster({ rootNodes: [{ url: process.env.REDIS_URL }] }).connect();
 * const sessionStore = new RedisSessionStore({ client });
 * ```
 */
export type RedisClient = RedisNodeClient | RedisClusterClient | RedisSentinelClient;

/** Whether `client` is a Redis Cluster client (it knows the cluster's primaries). Package-internal. */
export function isCluster(client: RedisClient): client is RedisClusterClient {
  return 'masters' in client;
}

/** Whether `client` is a Sentinel-managed client. Package-internal. */
export function isSentinel(client: RedisClient): client is RedisSentinelClient {
  return 'getMasterNode' in client;
}

/**
 * Sends a raw command about `key` (e.g. `EVALSHA … 1 <key> …`): a cluster client routes it to the
 * primary of the key's slot (any node when `key` is undefined), a single-server client sends it as is. Package-internal.
 */
export function sendKeyed(client: RedisClient, key: string | undefined, args: string[]): Promise<unknown> {
  if (isCluster(client)) return client.sendCommand(key, false, args);
  return isSentinel(client) ? client.sendCommand(false, args) : client.sendCommand(args);
}

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
