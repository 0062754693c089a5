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
