import { isCluster, type RedisClient, sendKeyed } from './redis-client.js';

/**
 * How {@link RedisMessageBus} (and so `RedisSubscriptionFanOut` and `storeEventAndPublish`) publishes:
 * `'sharded'` with `SPUBLISH`/`SSUBSCRIBE` (Redis ≥ 7: a message crosses only the shard that owns its
 * channel's slot), `'classic'` with `PUBLISH`/`SUBSCRIBE` (a cluster forwards every message to every
 * node), `'auto'` sharded on a Redis Cluster of Redis ≥ 7 and classic otherwise, decided once, on the
 * bus's first use. Every process of one deployment must end up in the same mode: a sharded subscriber
 * does not hear a classic publish.
 *
 * @example
 * ```ts
 * const mode: PubSubMode = 'sharded';
 * ```
 */
export type PubSubMode = 'auto' | 'sharded' | 'classic';

/**
 * The bus's `pubSub` unless told otherwise.
 *
 * @example
 * ```ts
 * new RedisMessageBus({ client, pubSub: DEFAULT_PUB_SUB });
 * ```
 */
export const DEFAULT_PUB_SUB: PubSubMode = 'auto';

/** First Redis major version with sharded pub/sub. */
const SHARDED_SINCE = 7;

/** `'sharded'` or `'classic'` for `mode` on `client` (one `INFO server` for `'auto'` on a cluster). */
export async function resolvePubSub(client: RedisClient, mode: PubSubMode): Promise<boolean> {
  if (mode !== 'auto') return mode === 'sharded';
  if (!isCluster(client)) return false;
  const info = String(await sendKeyed(client, undefined, ['INFO', 'server']));
  const major = Number(/^redis_version:(\d+)/m.exec(info)?.[1] ?? 0);
  return major >= SHARDED_SINCE;
}

/**
 * The channel of `topic` under `prefix`: the topic's id (after its first `:`, or the whole topic) is the
 * hash tag, so `stream:<id>` lands in the slot of the stream's key `<prefix>events:{<id>}` and the
 * store-and-publish script stays in one slot, sharded or not.
 */
export function channelName(prefix: string, topic: string): string {
  const colon = topic.indexOf(':');
  return colon === -1
    ? `${prefix}{${topic}}`
    : `${prefix}${topic.slice(0, colon + 1)}{${topic.slice(colon + 1)}}`;
}
