import { createCluster } from 'redis';
import { watchTopology } from './cluster-topology.js';
import { type ConnectionLimits, failFast } from './connect-redis.js';
import type { RedisClusterClient } from './redis-client.js';

type NodeRedisClusterOptions = Parameters<typeof createCluster>[0];

/**
 * Options of {@link connectRedisCluster}; each limit (per node connection) defaults to its
 * `DEFAULT_REDIS_CONNECTION` entry.
 *
 * @example
 * ```ts
 * const options: ConnectRedisClusterOptions = { rootNodes: ['redis://10.0.0.1:6379', 'redis://10.0.0.2:6379'] };
 * ```
 */
export interface ConnectRedisClusterOptions extends ConnectionLimits {
  /** Some nodes of the cluster (`redis://host:port`), asked for the rest; give several. */
  rootNodes: string[];
  /** Connection errors of any node. Default: ignored (never unhandled; see `connectRedis`). */
  onerror?: ((error: Error) => void) | undefined;
  /** Any other node-redis cluster option (`defaults.password`, `useReplicas` …); these win. */
  redis?: Partial<NodeRedisClusterOptions> | undefined;
}

/**
 * A connected node-redis Redis Cluster client that fails fast (each node's connection as
 * `connectRedis` makes it: no offline queue, bounded reconnects, socket timeout) and follows a
 * failover: when a primary stops answering it re-reads the cluster's topology until the promoted
 * replica serves the slots (node-redis alone re-reads it only on `MOVED`). Commands sent to the dead
 * primary meanwhile fail at once; the transports answer them with 503 and `Retry-After`.
 *
 * @example
 * ```ts
 * const client = await connectRedisCluster({ rootNodes: process.env.REDIS_NODES.split(',') });
 * const sessionStore = new RedisSessionStore({ client });
 * ```
 */
export async function connectRedisCluster(options: ConnectRedisClusterOptions): Promise<RedisClusterClient> {
  const extra = options.redis ?? {};
  const base = failFast(options);
  const client = createCluster({
    rootNodes: options.rootNodes.map((url) => ({ url })),
    ...extra,
    defaults: { ...base, ...extra.defaults, socket: { ...base.socket, ...extra.defaults?.socket } },
  } as NodeRedisClusterOptions) as RedisClusterClient;
  client.on('error', options.onerror ?? (() => undefined));
  // Node connections' errors come as 'node-error'; without a listener they are dropped, never thrown.
  watchTopology(client);
  await client.connect();
  return client;
}
