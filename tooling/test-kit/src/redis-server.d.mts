/** A `redis-server` started for one test suite (or a demo, or a bench run); disposing it stops the server. */
export interface RedisServerHandle extends AsyncDisposable {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: persistence is off), after `stop()`. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung Redis. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). Harmless when it was not paused. */
  resume(): void;
}

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /**
   * Cluster mode (`--cluster-enabled yes`), the one node owning all 16 384 slots: a plain client works,
   * and multi-key commands, transactions and scripts over keys of different slots fail with CROSSSLOT as
   * on a real cluster. Default false.
   */
  cluster?: boolean | undefined;
}

/**
 * Starts a real `redis-server` (`REDIS_SERVER`, else /usr/bin/redis-server, else `PATH`) on a free port
 * of 127.0.0.1 with persistence off (`--save '' --appendonly no`). A missing binary fails loudly (never a
 * skip): the Redis tests must run. Use with `await using`, or call `stop()` in an `afterAll`.
 * `{ cluster: true }`: see {@link StartRedisOptions.cluster}.
 *
 * @example
 * await using redis = await startRedis();
 * const client = createClient({ url: redis.url });
 */
export function startRedis(options?: StartRedisOptions): Promise<RedisServerHandle>;

/** Options of {@link startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** Primaries, each owning an equal share of the 16 384 slots. Default 3. */
  primaries?: number | undefined;
  /** Replicas of each primary. Default 1. */
  replicasPerPrimary?: number | undefined;
  /**
   * `--cluster-node-timeout`: how long a silent primary takes to be failed over. Default 2 000 ms. A
   * replica always takes over (`--cluster-replica-validity-factor 0`), however stale its link looked.
   */
  nodeTimeoutMs?: number | undefined;
}

/** One `redis-server` of a {@link RedisClusterHandle}. */
export interface RedisClusterNode {
  host: '127.0.0.1';
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Stops this node (SIGTERM, then SIGKILL after 5 s). Idempotent. */
  stop(): Promise<void>;
  /** `kill -9` of this node, as a crashed primary. */
  kill(): void;
}

/** A Redis Cluster started for one test suite; disposing it stops every node. */
export interface RedisClusterHandle extends AsyncDisposable {
  nodes: RedisClusterNode[];
  /** For node-redis `createCluster({ rootNodes })`. */
  rootNodes: Array<{ url: string }>;
  /** Stops every node and removes their files. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a real Redis Cluster on 127.0.0.1: `primaries × (1 + replicasPerPrimary)` `redis-server
 * --cluster-enabled yes` on free ports, joined by `redis-cli --cluster create --cluster-replicas <n>
 * --cluster-yes`; resolves once every node reports `cluster_state:ok`. A missing binary fails loudly.
 *
 * @example
 * await using cluster = await startRedisCluster();
 * const client = await createCluster({ rootNodes: cluster.rootNodes }).connect();
 */
export function startRedisCluster(options?: StartRedisClusterOptions): Promise<RedisClusterHandle>;

/** Options of {@link startRedisSentinel}. */
export interface StartRedisSentinelOptions {
  /** The primary's name in the sentinels' configuration. Default `'mymaster'`. */
  name?: string | undefined;
  /** Replicas of the primary. Default 1. */
  replicas?: number | undefined;
  /** Sentinels (quorum: a majority of them). Default 3. */
  sentinels?: number | undefined;
  /** `sentinel down-after-milliseconds`: how long a silent primary takes to be failed over. Default 1 000. */
  downAfterMs?: number | undefined;
}

/** One process of a {@link RedisSentinelHandle}: a data server or a sentinel. */
export interface RedisSentinelNode {
  host: '127.0.0.1';
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  kind: 'server' | 'sentinel';
  /** Stops it (SIGTERM, then SIGKILL after 5 s). Idempotent. */
  stop(): Promise<void>;
  /** `kill -9`, as a crash. */
  kill(): void;
}

/** A Sentinel set started for one test suite; disposing it stops every process. */
export interface RedisSentinelHandle extends AsyncDisposable {
  /** The primary's name, for `createSentinel({ name })`. */
  name: string;
  /** The data servers: the first started as the primary, the others as its replicas. */
  servers: RedisSentinelNode[];
  sentinels: RedisSentinelNode[];
  /** For node-redis `createSentinel({ sentinelRootNodes })`. */
  sentinelRootNodes: Array<{ host: string; port: number }>;
  /** The port of the primary the sentinels name now (another one after a failover). */
  primaryPort(): Promise<number>;
  /** Stops every process and removes their files. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a real Sentinel set on 127.0.0.1: one primary, its replicas, and sentinels
 * (`redis-server <conf> --sentinel`) on free ports; resolves once the replicas are in sync and every
 * sentinel sees them and the other sentinels. A missing binary fails loudly.
 *
 * @example
 * await using set = await startRedisSentinel();
 * const client = await createSentinel({ name: set.name, sentinelRootNodes: set.sentinelRootNodes }).connect();
 */
export function startRedisSentinel(options?: StartRedisSentinelOptions): Promise<RedisSentinelHandle>;
