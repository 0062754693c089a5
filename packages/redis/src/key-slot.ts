import calculateSlot from 'cluster-key-slot';

/**
 * The Redis Cluster slot of `key` (its hash tag's, when it has one), by the same function node-redis routes
 * with, so the bus subscribes on the primary the cluster client publishes to. Package-internal.
 */
export function keySlot(key: string): number {
  return calculateSlot(key);
}
