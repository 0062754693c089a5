import { type RedisClusterHandle, startRedisCluster } from '@x/test-kit';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The test kit's Redis Cluster (issue #41): the later cluster runs of the stores and of the
// three-process tests stand on it, so it must really be a 3-primary/3-replica cluster, up in seconds.

let cluster: RedisClusterHandle;
let startMs = 0;

beforeAll(async () => {
  const started = Date.now();
  cluster = await startRedisCluster();
  startMs = Date.now() - started;
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('startRedisCluster', () => {
  it('starts three primaries with one replica each on loopback, in seconds, serving every slot', async () => {
    expect(cluster.nodes).toHaveLength(6);
    expect(startMs).toBeLessThan(30_000);
    const client = await createCluster({ rootNodes: cluster.rootNodes }).connect();
    try {
      expect(client.masters).toHaveLength(3);
      // CLUSTER NODES: one line per node, `master` or `slave` (with its primary's id) among the flags.
      const lines = (await client.sendCommand(undefined, true, ['CLUSTER', 'NODES'])) as string;
      const roles = lines
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[2] ?? '');
      expect(roles.filter((flags) => flags.includes('master'))).toHaveLength(3);
      expect(roles.filter((flags) => flags.includes('slave'))).toHaveLength(3);
      const info = await client.clusterInfo();
      expect(info).toContain('cluster_state:ok');
      expect(info).toContain('cluster_slots_assigned:16384');
      // Keys that land on every primary: the client follows the slots to each node.
      const keys = Array.from({ length: 30 }, (_, n) => `kit:${n}`);
      for (const key of keys) await client.set(key, key);
      const slots = new Set(keys.map((key) => client.getSlotMaster(slotOf(key)).port));
      expect(slots.size).toBe(3);
      for (const key of keys) expect(await client.get(key)).toBe(key);
    } finally {
      client.destroy();
    }
  });

  it('stop() ends every node', async () => {
    const other = await startRedisCluster({ primaries: 3, replicasPerPrimary: 0 });
    expect(other.nodes).toHaveLength(3);
    await other.stop();
    const probe = createCluster({
      rootNodes: other.rootNodes,
      defaults: { socket: { reconnectStrategy: false } },
    });
    probe.on('error', () => undefined);
    await expect(probe.connect()).rejects.toThrow();
  }, 60_000);
});

/** CRC16/XMODEM mod 16 384: Redis Cluster's key slot (keys here have no hash tag). */
function slotOf(key: string): number {
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16_384;
}
