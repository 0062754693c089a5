import { startRedis, startRedisCluster } from '@x/test-kit/redis-server';
import { createClient } from 'redis';

/** Primaries of the bench's Redis Cluster (no replicas: the figures are the primaries' own work). */
export const BENCH_CLUSTER_PRIMARIES = 3;

/** A redis-server (or a Redis Cluster) child of the bench. */
export interface BenchRedis {
  /** `redis://…` of the server; of a cluster, its nodes' URLs joined by commas. */
  url: string;
  cluster: boolean;
  /** Calls per command since start (`INFO commandstats`, summed over every node), e.g. `{ publish: 12 }`. */
  commandStats(): Promise<Record<string, number>>;
  /** The same per node, by port. */
  nodeCommandStats(): Promise<Map<number, Record<string, number>>>;
  /** `used_memory` (`INFO memory`) summed over every node, in bytes. */
  usedMemory(): Promise<number>;
  stop(): Promise<void>;
}

type Admin = Awaited<ReturnType<ReturnType<typeof createClient>['connect']>>;

async function commandStatsOf(admin: Admin): Promise<Record<string, number>> {
  const stats: Record<string, number> = Object.create(null);
  const text = await admin.info('commandstats');
  for (const match of text.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
    stats[match[1] as string] = Number(match[2]);
  return stats;
}

async function usedMemoryOf(admin: Admin): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))?.[1]);
}

/** Admin connections (one per node) for `INFO`, as a `BenchRedis`. */
async function benchRedisOf(
  nodes: Array<{ url: string; port: number }>,
  cluster: boolean,
  stop: () => Promise<void>,
): Promise<BenchRedis> {
  const admins = await Promise.all(nodes.map((node) => createClient({ url: node.url }).connect()));
  const nodeCommandStats = async (): Promise<Map<number, Record<string, number>>> => {
    const stats = await Promise.all(admins.map(commandStatsOf));
    return new Map(stats.map((s, i) => [nodes[i]?.port as number, s]));
  };
  return {
    url: nodes.map((node) => node.url).join(','),
    cluster,
    nodeCommandStats,
    commandStats: async () => {
      const total: Record<string, number> = Object.create(null);
      for (const stats of (await nodeCommandStats()).values())
        for (const [name, calls] of Object.entries(stats)) total[name] = (total[name] ?? 0) + calls;
      return total;
    },
    usedMemory: async () => (await Promise.all(admins.map(usedMemoryOf))).reduce((a, b) => a + b, 0),
    stop: async () => {
      for (const admin of admins) admin.destroy();
      await stop();
    },
  };
}

/**
 * Starts `redis-server` on a free loopback port with persistence off (`startRedis()` of `@x/test-kit`;
 * a missing binary fails loudly) and keeps an admin connection for `INFO`.
 *
 * @example
 * const redis = await startBenchRedis();
 * const before = await redis.commandStats();
 */
export async function startBenchRedis(): Promise<BenchRedis> {
  const server = await startRedis();
  return benchRedisOf([server], false, () => server.stop());
}

/**
 * Starts a Redis Cluster of {@link BENCH_CLUSTER_PRIMARIES} primaries on loopback, as the Redis tests do
 * (`startRedisCluster()` of `@x/test-kit`), without replicas, and keeps an admin connection per node.
 *
 * @example
 * const redis = await startBenchRedisCluster();
 * const perNode = await redis.nodeCommandStats();
 */
export async function startBenchRedisCluster(primaries = BENCH_CLUSTER_PRIMARIES): Promise<BenchRedis> {
  const cluster = await startRedisCluster({ primaries, replicasPerPrimary: 0 });
  return benchRedisOf(cluster.nodes, true, () => cluster.stop());
}
