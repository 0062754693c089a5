import type { Unsubscribe } from './message-bus.js';
import type { ChangeNotice, SubscriptionFanOut } from './subscription-fan-out.js';

/**
 * The process-local {@link SubscriptionFanOut}: every subscriber in this process hears every notice,
 * in publication order.
 *
 * @example
 * ```ts
 * const fanOut = new InMemorySubscriptionFanOut();
 * const stop = await fanOut.subscribe((notice) => console.log('changed:', notice.kind));
 * await fanOut.publish({ kind: 'tools' });
 * await stop();
 * ```
 */
export class InMemorySubscriptionFanOut implements SubscriptionFanOut {
  readonly #listeners = new Set<(notice: ChangeNotice) => void>();

  async publish(notice: ChangeNotice): Promise<void> {
    for (const listener of [...this.#listeners]) listener({ ...notice });
  }

  async subscribe(listener: (notice: ChangeNotice) => void): Promise<Unsubscribe> {
    const entry = (notice: ChangeNotice): void => listener(notice);
    this.#listeners.add(entry);
    return async () => {
      this.#listeners.delete(entry);
    };
  }
}
