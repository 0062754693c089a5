export interface HeartbeatOptions {
  intervalMs: number;
  /** Sends a ping. */
  ping: () => void;
  /** The peer stayed silent for a whole interval after a ping. */
  ontimeout: () => void;
}

/**
 * Ping/pong liveness for one socket. Each tick either pings (the peer was heard from since the last tick)
 * or declares the peer dead, so a vanished peer is dropped between one and two intervals after it went
 * silent. Any frame counts as a sign of life, not only pongs: a pong can queue behind a large message.
 */
export class Heartbeat {
  readonly #options: HeartbeatOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #alive = true;

  constructor(options: HeartbeatOptions) {
    this.#options = options;
    this.#timer = setInterval(() => this.#tick(), options.intervalMs);
    // Liveness checks must not keep a process alive on their own.
    this.#timer.unref?.();
  }

  markAlive(): void {
    this.#alive = true;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    if (!this.#alive) {
      this.stop();
      this.#options.ontimeout();
      return;
    }
    this.#alive = false;
    this.#options.ping();
  }
}
