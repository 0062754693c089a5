import type { MessageBus, Unsubscribe } from './message-bus.js';

/**
 * The process-local {@link MessageBus}: several handlers in one process share it as if they were
 * processes of a cluster. Payloads are copied through JSON, as a networked bus would, so a listener
 * never shares an object with the publisher and what works here works on Redis.
 *
 * @example
 * ```ts
 * const messageBus = new InMemoryMessageBus();
 * const a = createStreamableHttpHandler({ onsession, sessionStore, messageBus });
 * const b = createStreamableHttpHandler({ onsession, sessionStore, messageBus });
 * ```
 */
export class InMemoryMessageBus implements MessageBus {
  readonly #topics = new Map<string, Set<(payload: unknown) => void>>();

  /** Topics with at least one subscriber. */
  get topicCount(): number {
    return this.#topics.size;
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    const listeners = this.#topics.get(topic);
    if (listeners === undefined) return;
    const text = JSON.stringify(payload);
    for (const listener of [...listeners]) listener(JSON.parse(text));
  }

  async subscribe(topic: string, listener: (payload: unknown) => void): Promise<Unsubscribe> {
    let listeners = this.#topics.get(topic);
    if (listeners === undefined) {
      listeners = new Set();
      this.#topics.set(topic, listeners);
    }
    // A wrapper per subscription, so one listener subscribed twice is two subscriptions.
    const entry = (payload: unknown): void => listener(payload);
    listeners.add(entry);
    return async () => {
      const current = this.#topics.get(topic);
      if (current === undefined) return;
      current.delete(entry);
      if (current.size === 0) this.#topics.delete(topic);
    };
  }
}
