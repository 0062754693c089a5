import type { MessageBus, Unsubscribe } from '@x/protocol';
import {
  DEFAULT_PREFIX,
  isCluster,
  type RedisClient,
  type RedisStoreOptions,
  sendKeyed,
} from './redis-client.js';

/**
 * Options for {@link RedisMessageBus} (and `RedisSubscriptionFanOut`).
 *
 * @example
 * ```ts
 * new RedisMessageBus({ client, onerror: (error) => log.warn('redis subscriber', error) });
 * ```
 */
export interface RedisMessageBusOptions extends RedisStoreOptions {
  /**
   * Errors of the subscriber connection (Redis went away; node-redis reconnects and subscribes again on
   * its own). Default: ignored, since the client you passed reports the same outage.
   */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * The channel `bus` publishes `topic` on when `bus` is a {@link RedisMessageBus} on `client` itself (the
 * same node-redis client object, so the same server and connection options); undefined otherwise.
 * `RedisEventStore.storeEventAndPublish` publishes in its own script only then. Package-internal.
 */
export function channelOn(bus: MessageBus, client: RedisClient, topic: string): string | undefined {
  return sameClientChannel(bus, client, topic);
}

/** Set by the class's static block, which alone reads another instance's private fields. */
let sameClientChannel: typeof channelOn;

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
  readonly #onerror: (error: Error) => void;
  #subscriber: Promise<RedisClient> | undefined;

  static {
    sameClientChannel = (bus, client, topic) =>
      bus instanceof RedisMessageBus && bus.#client === client ? bus.#prefix + topic : undefined;
  }

  constructor(options: RedisMessageBusOptions) {
    this.#client = options.client;
    this.#prefix = `${options.prefix ?? DEFAULT_PREFIX}bus:`;
    this.#onerror = options.onerror ?? (() => undefined);
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    const channel = this.#prefix + topic;
    // A cluster client sends an unkeyed PUBLISH to any node, and two nodes forward to the subscriber's
    // node on separate links: one topic's messages could arrive out of order. Routing by the channel's
    // slot sends every message of one topic through the same primary, in order.
    await sendKeyed(this.#client, channel, ['PUBLISH', channel, JSON.stringify(payload)]);
  }

  async subscribe(topic: string, listener: (payload: unknown) => void): Promise<Unsubscribe> {
    const subscriber = await this.#connection();
    const channel = this.#prefix + topic;
    // One wrapper per subscription: node-redis removes listeners by identity.
    // Never a Buffer (no buffer mode asked); typed so for both client kinds' listener types.
    const onMessage = (text: string | Buffer): void => listener(JSON.parse(text.toString()));
    await subscriber.subscribe(channel, onMessage);
    return async () => {
      // While Redis is away there is nothing to tell it; a closed bus has no subscriptions left.
      if (subscribed(subscriber)) await subscriber.unsubscribe(channel, onMessage);
    };
  }

  /** Closes the subscriber connection (the client given in the options stays the caller's). */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber === undefined) return;
    const connection = await subscriber.catch(() => undefined);
    if (connection?.isOpen === true) connection.destroy();
    connection?.off('error', this.#onerror);
  }

  #connection(): Promise<RedisClient> {
    if (this.#subscriber === undefined) {
      // A cluster client's duplicate subscribes on one node of the cluster (classic pub/sub reaches
      // every node), and resubscribes elsewhere when that node goes.
      const subscriber: RedisClient = isCluster(this.#client)
        ? this.#client.duplicate()
        : this.#client.duplicate();
      // An 'error' event without a listener would crash the process when Redis goes away.
      subscriber.on('error', this.#onerror);
      this.#subscriber = (subscriber.connect() as Promise<RedisClient>).then(() => subscriber);
    }
    return this.#subscriber;
  }
}

/** Whether the subscriber's connection is up (a cluster's: the node its subscriptions are on). */
function subscribed(subscriber: RedisClient): boolean {
  return isCluster(subscriber) ? subscriber.pubSubNode?.client.isReady === true : subscriber.isReady;
}
