import { Pool } from 'undici';

/**
 * Timeouts are off because SSE streams and slow tools legitimately stay quiet; the protocol engine owns
 * request timeouts and aborts instead. Idle sockets are unref'd by undici, so they never hold a process.
 */
const POOL_OPTIONS: Pool.Options = { keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 };

interface Entry {
  pool: Pool;
  users: number;
  closing: ReturnType<typeof setImmediate> | undefined;
}

const pools = new Map<string, Entry>();

/** A transport's share of the keep-alive pool of its server's origin. */
export interface PoolLease {
  readonly pool: Pool;
  /** The transport is done with the pool; the last one out closes it. Idempotent. */
  release(): void;
}

/**
 * The keep-alive pool for `origin`, shared by every open transport that talks to it, so a new session
 * to the same server (a reconnect, a CLI call, a test) skips the TCP handshake. When the last lease is
 * released the pool closes one event-loop turn later (unless a new lease came first): a closed client
 * leaves no idle keep-alive sockets behind that a server's `close()` would wait for, while back-to-back
 * sessions still reuse the connection.
 */
export function leasePool(origin: string): PoolLease {
  let entry = pools.get(origin);
  if (entry === undefined) {
    entry = { pool: new Pool(origin, POOL_OPTIONS), users: 0, closing: undefined };
    pools.set(origin, entry);
  } else if (entry.closing !== undefined) {
    clearImmediate(entry.closing);
    entry.closing = undefined;
  }
  entry.users++;
  const leased = entry;
  let released = false;
  return {
    pool: leased.pool,
    release: () => {
      if (released) return;
      released = true;
      if (--leased.users > 0) return;
      leased.closing = setImmediate(() => {
        if (pools.get(origin) === leased) pools.delete(origin);
        // destroy, not close: its users aborted their exchanges, and nothing should wait on them.
        leased.pool.destroy().catch(() => {});
      });
      leased.closing.unref();
    },
  };
}
