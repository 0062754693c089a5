import type { RedisClusterClient } from './redis-client.js';

/** Least time between two topology refreshes one watcher asks for (ms). */
const REFRESH_EVERY_MS = 200;

/**
 * Makes a cluster client re-read the cluster's topology when a node's connection fails, and calls
 * `onRefresh` after each re-read. node-redis re-reads it only on a `MOVED` or `ASK` reply
 * (redis/node-redis#2806): a primary that is killed answers nothing, so without this the client keeps
 * sending that primary's slots to a dead address after its replica took over. Each failed connect of
 * the dead node (`node-error`, `node-reconnecting`) asks again, at most every 200 ms, until the
 * refreshed topology no longer holds the node and node-redis drops its connection. Returns a function
 * that stops watching. Package-internal.
 */
export function watchTopology(client: RedisClusterClient, onRefresh?: () => void): () => void {
  let running = false;
  let last = 0;
  const refresh = (): void => {
    if (running || Date.now() - last < REFRESH_EVERY_MS || !client.isOpen) return;
    running = true;
    last = Date.now();
    const live = client.masters.find((node) => node.client?.isReady === true)?.client;
    const start = live ?? client.masters[0]?.client;
    if (start === undefined) {
      running = false;
      return;
    }
    // `rediscover` asks `start` first, then every root node.
    client._slots
      .rediscover(start)
      .then(() => onRefresh?.())
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  };
  client.on('node-error', refresh);
  client.on('node-reconnecting', refresh);
  return () => {
    client.off('node-error', refresh);
    client.off('node-reconnecting', refresh);
  };
}
