/** POSTs in flight at once by default (see `SseClientTransportOptions.maxConcurrentSends`). */
export const DEFAULT_MAX_CONCURRENT_SENDS = 16;

interface Waiter {
  barrier: boolean;
  start: () => void;
}

/**
 * Caps how many POSTs are in flight, and keeps notifications in their place. Concurrent POSTs race over
 * separate connections, so requests and responses may reach the server in another order than they were
 * sent (JSON-RPC gives them no order either). A notification is a barrier: it is sent once every earlier
 * POST was accepted, and nothing sent after it goes out before it was accepted. So `initialized` still
 * precedes every later request, and a `notifications/cancelled` never overtakes its request. With a cap
 * of 1 every message keeps its place.
 */
export class SendLimiter {
  readonly #max: number;
  #active = 0;
  #barrierActive = false;
  readonly #waiting: Waiter[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('maxConcurrentSends must be an integer >= 1');
    this.#max = max;
  }

  async run<T>(task: () => Promise<T>, barrier = false): Promise<T> {
    if (this.#waiting.length === 0 && this.#canStart(barrier)) this.#begin(barrier);
    else await new Promise<void>((start) => this.#waiting.push({ barrier, start }));
    try {
      return await task();
    } finally {
      this.#active--;
      if (barrier) this.#barrierActive = false;
      this.#pump();
    }
  }

  #canStart(barrier: boolean): boolean {
    if (this.#barrierActive) return false;
    return barrier ? this.#active === 0 : this.#active < this.#max;
  }

  #begin(barrier: boolean): void {
    this.#active++;
    if (barrier) this.#barrierActive = true;
  }

  /** Starts waiters in order; one that cannot start yet holds back everything behind it. */
  #pump(): void {
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0]!;
      if (!this.#canStart(next.barrier)) return;
      this.#waiting.shift();
      this.#begin(next.barrier);
      next.start();
    }
  }
}
