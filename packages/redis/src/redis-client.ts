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
