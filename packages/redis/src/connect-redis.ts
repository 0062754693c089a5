import { createClient } from 'redis';
import type { RedisNodeClient } from './redis-client.js';

/**
 * The limits {@link connectRedis} gives a node-redis client unless told otherwise (ms, and commands).
 *
 * @example
 * ```ts
 * const client = await connectRedis({ url, socketTimeoutMs: DEFAULT_REDIS_CONNECTION.socketTimeoutMs * 2 });
 * ```
 */
export const DEFAULT_REDIS_CONNECTION = {
  /** TCP connect (`socket.connectTimeout`). */
  connectTimeoutMs: 2_000,
  /** A connection that neither reads nor writes for this long is dropped and re-made (`socket.socketTimeout`). */
  socketTimeoutMs: 5_000,
  /** `PING` on an idle connection (`pingInterval`): a live one is never idle, a frozen one goes silent. */
  pingIntervalMs: 1_000,
  /** Longest wait between two reconnection attempts (exponential from 50 ms). */
  maxReconnectDelayMs: 2_000,
  /** Commands waiting for Redis at most (`commandsQueueMaxLength`); more fail at once. */
  maxQueuedCommands: 10_000,
} as const;

type NodeRedisOptions = NonNullable<Parameters<typeof createClient>[0]>;

/**
 * Options of {@link connectRedis}; each limit defaults to its {@link DEFAULT_REDIS_CONNECTION} entry.
 *
 * @example
 * ```ts
 * const options: ConnectRedisOptions = { url: process.env.REDIS_URL, onerror: (e) => log.warn('redis', e) };
 * ```
 */
export interface ConnectRedisOptions {
  /** `redis[s]://[[user][:password@]]host[:port][/db]`. Default node-redis's (`redis://localhost:6379`). */
  url?: string | undefined;
  /**
   * Connection errors (Redis went away, a reconnection failed; node-redis reports each). Default:
   * ignored, since the stores' callers report the failures that matter (the transports' `onerror`).
   * Never unhandled: node-redis's `'error'` event without a listener would crash the process.
   */
  onerror?: ((error: Error) => void) | undefined;
  connectTimeoutMs?: number | undefined;
  socketTimeoutMs?: number | undefined;
  pingIntervalMs?: number | undefined;
  maxReconnectDelayMs?: number | undefined;
  maxQueuedCommands?: number | undefined;
  /** Any other node-redis option (`username`, `password`, `socket.tls`, `database` …); these win. */
  redis?: NodeRedisOptions | undefined;
}

/**
 * A connected node-redis client that fails fast instead of waiting on a Redis that is gone or frozen
 * (issue #35, finding 6): commands fail at once while it reconnects (`disableOfflineQueue`) instead of
 * queueing without bound; it reconnects forever with a bounded backoff; a connection that goes silent
 * (a frozen server: `PING`s unanswered) is dropped after `socketTimeoutMs` and re-made; an `'error'`
 * listener is always attached. node-redis's own per-command `timeout` is not used: it only bounds the
 * time before a command is written, not the wait for its reply; the transports' `storeTimeoutMs`
 * bounds that.
 *
 * @example
 * ```ts
 * const client = await connectRedis({ url: process.env.REDIS_URL, onerror: (e) => log.warn('redis', e) });
 * const sessionStore = new RedisSessionStore({ client });
 * ```
 */
export async function connectRedis(options: ConnectRedisOptions = {}): Promise<RedisNodeClient> {
  const extra = options.redis ?? {};
  const base = failFast(options);
  const client = createClient({
    ...base,
    ...(options.url === undefined ? {} : { url: options.url }),
    ...extra,
    socket: { ...base.socket, ...extra.socket },
  } as NodeRedisOptions) as RedisNodeClient;
  client.on('error', options.onerror ?? (() => undefined));
  await client.connect();
  return client;
}

/** The limits the caller set (an undefined one keeps its default). */
export type ConnectionLimits = Pick<ConnectRedisOptions, keyof typeof DEFAULT_REDIS_CONNECTION>;

/**
 * The node-redis options of one connection that fails fast (see {@link connectRedis}), for a single
 * client, each node of a cluster, or each node a Sentinel client reaches. Package-internal.
 */
export function failFast(options: ConnectionLimits) {
  const limits = { ...DEFAULT_REDIS_CONNECTION, ...defined(options) };
  return {
    disableOfflineQueue: true,
    commandsQueueMaxLength: limits.maxQueuedCommands,
    pingInterval: limits.pingIntervalMs,
    socket: {
      connectTimeout: limits.connectTimeoutMs,
      socketTimeout: limits.socketTimeoutMs,
      reconnectStrategy: (retries: number) =>
        Math.min(50 * 2 ** Math.min(retries, 16), limits.maxReconnectDelayMs),
    },
  };
}

function defined(options: ConnectionLimits): Partial<Record<keyof typeof DEFAULT_REDIS_CONNECTION, number>> {
  const out: Partial<Record<keyof typeof DEFAULT_REDIS_CONNECTION, number>> = {};
  for (const key of Object.keys(DEFAULT_REDIS_CONNECTION) as Array<keyof typeof DEFAULT_REDIS_CONNECTION>) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
