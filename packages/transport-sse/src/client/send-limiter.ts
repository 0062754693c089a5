/**
 * Caps how many POSTs are in flight. With a cap of 1 each message is accepted by the server before the
 * next is sent, which is the only way HTTP+SSE can keep the client's messages in order: concurrent POSTs
 * race over separate connections.
 */
export class SendLimiter {
  #max: number;
  #active = 0;
  #waiting: Array<() => void> = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('maxConcurrentSends must be an integer >= 1');
    this.#max = max;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active < this.#max) this.#active++;
    // release() hands its slot straight to the next waiter, so #active is already counted for us.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#active--;
  }
}
