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

  /**
   * Runs `task` once a slot is free (at once when one is) and returns its own promise. The slot is given
   * back before anyone awaiting that promise resumes: the bookkeeping is the promise's first reaction.
   */
  run<T>(task: () => Promise<T>, barrier = false): Promise<T> {
    if (this.#waiting.length === 0 && this.#canStart(barrier)) {
      this.#begin(barrier);
      return this.#start(task, barrier);
    }
    return new Promise<void>((start) => this.#waiting.push({ barrier, start })).then(() =>
      this.#start(task, barrier),
    );
  }

  #start<T>(task: () => Promise<T>, barrier: boolean): Promise<T> {
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      this.#end(barrier);
      return Promise.reject(error);
    }
    const end = barrier ? this.#endBarrier : this.#endPlain;
    running.then(end, end);
    return running;
  }

  readonly #endPlain = (): void => this.#end(false);
  readonly #endBarrier = (): void => this.#end(true);

  #end(barrier: boolean): void {
    this.#active--;
    if (barrier) this.#barrierActive = false;
    this.#pump();
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
