import { type RedisSentinelHandle, startRedisSentinel } from '@x/test-kit';
import { createClient, createSentinel } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The test kit's Sentinel set (issue #41): the Sentinel runs of the stores and of the three-process
// tests stand on it, so it must really be a primary, a replica in sync, and three sentinels that agree.

let set: RedisSentinelHandle;

beforeAll(async () => {
  set = await startRedisSentinel();
}, 60_000);

afterAll(async () => {
  await set?.stop();
});

describe('startRedisSentinel', () => {
  it('starts a primary, a replica in sync and three sentinels that name the primary', async () => {
    expect(set.servers).toHaveLength(2);
    expect(set.sentinels).toHaveLength(3);
    const [primary, replica] = set.servers;
    expect(await set.primaryPort()).toBe(primary?.port);
    const replicaClient = await createClient({ url: replica?.url ?? '' }).connect();
    try {
      const info = await replicaClient.info('replication');
      expect(info).toContain('role:slave');
      expect(info).toContain(`master_port:${primary?.port}`);
      expect(info).toContain('master_link_status:up');
    } finally {
      replicaClient.destroy();
    }
    // A node-redis Sentinel client finds the primary through the sentinels, and writes reach the replica.
    const client = await createSentinel({
      name: set.name,
      sentinelRootNodes: set.sentinelRootNodes,
    }).connect();
    try {
      await client.set('kit:k', 'v');
      expect(await client.get('kit:k')).toBe('v');
    } finally {
      await client.destroy();
    }
  });
});
