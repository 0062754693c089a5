/** What a heartbeat needs of its socket (a `ws` WebSocket). */
export interface HeartbeatSocket {
  readonly readyState: number;
  readonly OPEN: number;
  ping(): void;
  /** Drops the TCP connection without a close handshake. */
  terminate(): void;
}

/**
 * Ping/pong liveness for one socket. Each tick either pings (the peer was heard from since the last tick)
 * or declares the peer dead, so a vanished peer is dropped between one and two intervals after it went
 * silent. Any frame counts as a sign of life, not only pongs: a pong can queue behind a large message.
 *
 * Every heartbeat of one interval ticks on one shared timer (a server with 10,000 connections runs one
 * timer, not 10,000): a socket joins at the group's next tick, which keeps the one-to-two-intervals bound.
 */
export class Heartbeat {
  readonly #socket: HeartbeatSocket;
  readonly #group: HeartbeatGroup;
  #alive = true;

  constructor(intervalMs: number, socket: HeartbeatSocket) {
    this.#socket = socket;
    this.#group = HeartbeatGroup.of(intervalMs);
    this.#group.add(this);
  }

  markAlive(): void {
    this.#alive = true;
  }

  stop(): void {
    this.#group.delete(this);
  }

  /** @internal */
  tick(): void {
    const socket = this.#socket;
    if (!this.#alive) {
      this.stop();
      // No close handshake with a peer that cannot answer: drop the TCP connection.
      socket.terminate();
      return;
    }
    this.#alive = false;
    if (socket.readyState === socket.OPEN) socket.ping();
  }
}

/** The heartbeats of one interval and their timer, which runs while the group has members. */
class HeartbeatGroup {
  static readonly #byInterval = new Map<number, HeartbeatGroup>();

  static of(intervalMs: number): HeartbeatGroup {
    let group = HeartbeatGroup.#byInterval.get(intervalMs);
    if (group === undefined) {
      group = new HeartbeatGroup(intervalMs);
      HeartbeatGroup.#byInterval.set(intervalMs, group);
    }
    return group;
  }

  readonly #intervalMs: number;
  readonly #members = new Set<Heartbeat>();
  #timer: ReturnType<typeof setInterval> | undefined;

  private constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  add(heartbeat: Heartbeat): void {
    this.#members.add(heartbeat);
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.#tick, this.#intervalMs);
      // Liveness checks must not keep a process alive on their own.
      this.#timer.unref?.();
    }
  }

  delete(heartbeat: Heartbeat): void {
    if (!this.#members.delete(heartbeat) || this.#members.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  readonly #tick = (): void => {
    // A member that times out leaves the set during the loop, which a Set iteration allows; one that
    // throws must not stop the others' checks.
    for (const heartbeat of this.#members) {
      try {
        heartbeat.tick();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
}
