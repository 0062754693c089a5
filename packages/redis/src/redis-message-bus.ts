import type { MessageBus, Unsubscribe } from '@x/protocol';
import { DEFAULT_PREFIX, type RedisClient, type RedisStoreOptions } from './redis-client.js';

/**
 * A {@link MessageBus} on Redis pub/sub: `publish` on the given client, subscriptions on one
 * `duplicate()` of it (made on the first `subscribe`, closed by `close()`). Channel names are the
 * prefix plus `bus:` plus the topic.
 *
 * @example
 * ```ts
 * const bus = new RedisMessageBus({ client });
 * const stop = await bus.subscribe('session:s-1', (payload) => console.log(payload));
 * await bus.publish('session:s-1', { hello: 'from another process' });
 * await stop();
 * await bus.close();
 * ```
 */
export class RedisMessageBus implements MessageBus {
  readonly #client: RedisClient;
  readonly #prefix: string;
  #subscriber: Promise<RedisClient> | undefined;

  constructor(options: RedisStoreOptions) {
    this.#client = options.client;
    this.#prefix = `${options.prefix ?? DEFAULT_PREFIX}bus:`;
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    await this.#client.publish(this.#prefix + topic, JSON.stringify(payload));
  }

  async subscribe(topic: string, listener: (payload: unknown) => void): Promise<Unsubscribe> {
    const subscriber = await this.#connection();
    const channel = this.#prefix + topic;
    // One wrapper per subscription: node-redis removes listeners by identity.
    const onMessage = (text: string): void => listener(JSON.parse(text));
    await subscriber.subscribe(channel, onMessage);
    return async () => {
      if (subscriber.isOpen) await subscriber.unsubscribe(channel, onMessage);
    };
  }

  /** Closes the subscriber connection (the client given in the options stays the caller's). */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber === undefined) return;
    const connection = await subscriber.catch(() => undefined);
    if (connection?.isOpen === true) connection.destroy();
  }

  #connection(): Promise<RedisClient> {
    this.#subscriber ??= this.#client.duplicate().connect() as Promise<RedisClient>;
    return this.#subscriber;
  }
}
