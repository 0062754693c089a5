import { createSentinel } from 'redis';
import { type ConnectionLimits, failFast } from './connect-redis.js';
import type { RedisSentinelClient } from './redis-client.js';

type NodeRedisSentinelOptions = Parameters<typeof createSentinel>[0];

/**
 * Options of {@link connectRedisSentinel}; each limit (per connection to the primary) defaults to its
 * `DEFAULT_REDIS_CONNECTION` entry.
 *
 * @example
 * ```ts
 * const options: ConnectRedisSentinelOptions = { name: 'mymaster', sentinels: [{ host: '10.0.0.5', port: 26379 }] };
 * ```
 */
export interface ConnectRedisSentinelOptions extends ConnectionLimits {
  /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  name: string;
  /** Some of the sentinels; the client learns the others from them. */
  sentinels: Array<{ host: string; port: number }>;
  /** Connection errors (of the sentinels and the nodes). Default: ignored (never unhandled). */
  onerror?: ((error: Error) => void) | undefined;
  /** Any other node-redis Sentinel option (`nodeClientOptions.password`, `scanInterval` …); these win. */
  redis?: Partial<NodeRedisSentinelOptions> | undefined;
}

/**
 * A connected node-redis client of a Sentinel-managed primary that fails fast while the primary is away
 * (no offline queue, bounded reconnects, socket timeout, as `connectRedis`) and follows a promotion:
 * node-redis listens to the sentinels' `switch-master` and moves its connections and subscriptions to
 * the new primary. Commands sent while no primary answers fail at once; the transports answer them
 * with 503 and `Retry-After`.
 *
 * @example
 * ```ts
 * const client = await connectRedisSentinel({ name: 'mymaster', sentinels: [{ host: 'sentinel-1', port: 26379 }] });
 * const sessionStore = new RedisSessionStore({ client });
 * ```
 */
export async function connectRedisSentinel(
  options: ConnectRedisSentinelOptions,
): Promise<RedisSentinelClient> {
  const extra = options.redis ?? {};
  const base = failFast(options);
  const client = createSentinel({
    name: options.name,
    sentinelRootNodes: options.sentinels,
    passthroughClientErrorEvents: true,
    ...extra,
    nodeClientOptions: {
      ...base,
      ...extra.nodeClientOptions,
      socket: { ...base.socket, ...extra.nodeClientOptions?.socket },
    },
  } as NodeRedisSentinelOptions) as RedisSentinelClient;
  client.on('error', options.onerror ?? (() => undefined));
  await client.connect();
  return client;
}
