import { startRedis } from '@x/test-kit/redis-server';
import { createClient } from 'redis';

/** A redis-server child of the bench. */
export interface BenchRedis {
  url: string;
  /** Calls per command since start (`INFO commandstats`), e.g. `{ publish: 12, xadd: 40 }`. */
  commandStats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on a free loopback port with persistence off (`startRedis()` of `@x/test-kit`;
 * a missing binary fails loudly) and keeps an admin connection for `INFO commandstats`.
 *
 * @example
 * const redis = await startBenchRedis();
 * const before = await redis.commandStats();
 */
export async function startBenchRedis(): Promise<BenchRedis> {
  const server = await startRedis();
  const url = server.url;
  const admin = await createClient({ url }).connect();
  return {
    url,
    commandStats: async () => {
      const stats: Record<string, number> = Object.create(null);
      const text = await admin.info('commandstats');
      for (const match of text.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
        stats[match[1] as string] = Number(match[2]);
      return stats;
    },
    stop: async () => {
      admin.destroy();
      await server.stop();
    },
  };
}
