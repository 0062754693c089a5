import type { MessageBus, Unsubscribe } from '@x/protocol';
import { watchTopology } from './cluster-topology.js';
import { keySlot } from './key-slot.js';
import { channelName, DEFAULT_PUB_SUB, type PubSubMode, resolvePubSub } from './pub-sub-mode.js';
import {
  DEFAULT_PREFIX,
  isCluster,
  isSentinel,
  type RedisClient,
  type RedisClusterClient,
  type RedisStoreOptions,
  sendKeyed,
} from './redis-client.js';

/**
 * Options for {@link RedisMessageBus} (and `RedisSubscriptionFanOut`).
 *
 * @example
 * ```ts
 * new RedisMessageBus({ client, pubSub: 'sharded', onerror: (error) => log.warn('redis subscriber', error) });
 * ```
 */
export interface RedisMessageBusOptions extends RedisStoreOptions {
  /**
   * Errors of the subscriber connection (Redis went away; node-redis reconnects and subscribes again on
   * its own). Default: ignored, since the client you passed reports the same outage.
   */
  onerror?: ((error: Error) => void) | undefined;
  /** Sharded or classic pub/sub; see {@link PubSubMode}. Default {@link DEFAULT_PUB_SUB} (`'auto'`). */
  pubSub?: PubSubMode | undefined;
}

/** Where `storeEventAndPublish`'s script publishes: the channel, and whether with `SPUBLISH`. */
export interface BusRoute {
  channel: string;
  sharded: boolean;
}

/**
 * The channel (and pub/sub kind) `bus` publishes `topic` on when `bus` is a {@link RedisMessageBus} on
 * `client` itself (the same node-redis client object, so the same server and connection options);
 * undefined otherwise. `RedisEventStore.storeEventAndPublish` publishes in its own script only then.
 * Package-internal.
 */
export function routeOn(bus: MessageBus, client: RedisClient, topic: string): Promise<BusRoute | undefined> {
  return sameClientRoute(bus, client, topic);
}

/** Set by the class's static block, which alone reads another instance's private fields. */
let sameClientRoute: typeof routeOn;

type Listener = (text: string | Buffer) => void;

/**
 * A {@link MessageBus} on Redis pub/sub: `publish` on the given client, subscriptions on one
 * `duplicate()` of it (made on the first `subscribe`, closed by `close()`; a Sentinel client
 * subscribes on its own pub/sub connection). Channel names are the prefix, `bus:`, and the topic with
 * its id as hash tag (`<prefix>bus:stream:{<id>}`). On a Redis Cluster of Redis ≥ 7 it uses sharded
 * pub/sub (`pubSub: 'auto'`): a message goes to the primary of its channel's slot and no further, and
 * the subscriber follows each channel to its primary, after a failover too.
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
  readonly #mode: PubSubMode;
  #sharded: Promise<boolean> | undefined;
  #subscriber: Promise<RedisClient> | undefined;
  #unwatch: (() => void) | undefined;
  /** Sharded subscriptions on a cluster, and the primary each was made on (to follow a failover). */
  readonly #shardChannels = new Map<string, { listeners: Set<Listener>; on: unknown }>();
  /**
   * Sharded subscribes and unsubscribes on a cluster, one at a time: node-redis closes a primary's
   * shard connection when its last channel goes, and a subscribe racing that would land on the
   * closed connection.
   */
  #shardOps: Promise<unknown> = Promise.resolve();
  /** What `close()` must undo on a client that is not the bus's own (a Sentinel client's pub/sub). */
  readonly #onShared = new Set<() => Promise<void>>();

  static {
    sameClientRoute = async (bus, client, topic) => {
      if (!(bus instanceof RedisMessageBus) || bus.#client !== client) return undefined;
      return { channel: bus.#channel(topic), sharded: await bus.#shardedMode() };
    };
  }

  constructor(options: RedisMessageBusOptions) {
    this.#client = options.client;
    this.#prefix = `${options.prefix ?? DEFAULT_PREFIX}bus:`;
    this.#onerror = options.onerror ?? (() => undefined);
    this.#mode = options.pubSub ?? DEFAULT_PUB_SUB;
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    const channel = this.#channel(topic);
    const command = (await this.#shardedMode()) ? 'SPUBLISH' : 'PUBLISH';
    // Routed by the channel's slot on a cluster: SPUBLISH must go to the slot's primary, and a classic
    // PUBLISH sent to any node could overtake an earlier one forwarded by another node.
    await sendKeyed(this.#client, channel, [command, channel, JSON.stringify(payload)]);
  }

  async subscribe(topic: string, listener: (payload: unknown) => void): Promise<Unsubscribe> {
    const sharded = await this.#shardedMode();
    const subscriber = await this.#connection();
    const channel = this.#channel(topic);
    // One wrapper per subscription: node-redis removes listeners by identity.
    // Never a Buffer (no buffer mode asked); typed so for every client kind's listener type.
    const onMessage: Listener = (text) => listener(JSON.parse(text.toString()));
    if (sharded) await this.#serially(subscriber, () => this.#sSubscribe(subscriber, channel, onMessage));
    else await subscriber.subscribe(channel, onMessage);
    const unsubscribe = async (): Promise<void> => {
      this.#onShared.delete(unsubscribe);
      const held = this.#shardChannels.get(channel);
      held?.listeners.delete(onMessage);
      if (held?.listeners.size === 0) this.#shardChannels.delete(channel);
      // While Redis is away there is nothing to tell it; a closed bus has no subscriptions left.
      if (!subscribed(subscriber, channel, sharded)) return;
      if (sharded) await this.#serially(subscriber, () => subscriber.sUnsubscribe(channel, onMessage));
      else await subscriber.unsubscribe(channel, onMessage);
    };
    if (subscriber === this.#client) this.#onShared.add(unsubscribe);
    return unsubscribe;
  }

  /** Closes the subscriber connection (the client given in the options stays the caller's). */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#shardChannels.clear();
    if (subscriber === undefined) return;
    const connection = await subscriber.catch(() => undefined);
    // A Sentinel client subscribes on its own connection: the caller's client, left open, less ours.
    if (connection === this.#client) {
      await Promise.all([...this.#onShared].map((unsubscribe) => unsubscribe().catch(() => undefined)));
      return;
    }
    if (connection === undefined) return;
    if (connection.isOpen) connection.destroy();
    connection.off('error', this.#onerror);
  }

  #channel(topic: string): string {
    return channelName(this.#prefix, topic);
  }

  /** Decided once; a failed look-up (Redis away) is asked again next time, never guessed. */
  #shardedMode(): Promise<boolean> {
    if (this.#sharded === undefined) {
      const decided = resolvePubSub(this.#client, this.#mode);
      this.#sharded = decided;
      decided.catch(() => {
        if (this.#sharded === decided) this.#sharded = undefined;
      });
    }
    return this.#sharded;
  }

  #serially<T>(subscriber: RedisClient, op: () => Promise<T>): Promise<T> {
    if (!isCluster(subscriber)) return op();
    const run = this.#shardOps.then(op, op);
    this.#shardOps = run.catch(() => undefined);
    return run;
  }

  async #sSubscribe(subscriber: RedisClient, channel: string, onMessage: Listener): Promise<void> {
    await subscriber.sSubscribe(channel, onMessage);
    if (!isCluster(subscriber)) return;
    const held = this.#shardChannels.get(channel) ?? { listeners: new Set<Listener>(), on: undefined };
    held.listeners.add(onMessage);
    held.on = subscriber.getSlotMaster(keySlot(channel));
    this.#shardChannels.set(channel, held);
  }

  /**
   * After the subscriber re-read the cluster's topology: every sharded channel whose slot now has
   * another primary is subscribed there again (node-redis drops the dead primary's connection, and its
   * subscriptions with it). Subscribing a listener twice on one connection is harmless (a set).
   */
  #follow(subscriber: RedisClusterClient): void {
    for (const [channel, held] of this.#shardChannels) {
      const master = subscriber.getSlotMaster(keySlot(channel));
      if (master === held.on && master.pubSub !== undefined) continue;
      held.on = master;
      for (const listener of held.listeners) {
        this.#serially(subscriber, () => subscriber.sSubscribe(channel, listener)).catch((error: unknown) => {
          // Asked again on the next topology refresh.
          held.on = undefined;
          this.#onerror(error instanceof Error ? error : new Error(String(error)));
        });
      }
    }
  }

  #connection(): Promise<RedisClient> {
    if (this.#subscriber !== undefined) return this.#subscriber;
    const client = this.#client;
    if (isSentinel(client)) {
      // node-redis's Sentinel client keeps subscriptions on a connection of its own, and moves them to
      // the new primary after a failover.
      this.#subscriber = Promise.resolve(client);
      return this.#subscriber;
    }
    let subscriber: RedisClient;
    if (isCluster(client)) {
      const cluster = client.duplicate();
      this.#unwatch = watchTopology(cluster, () => this.#follow(cluster));
      subscriber = cluster;
    } else {
      subscriber = client.duplicate();
    }
    // An 'error' event without a listener would crash the process when Redis goes away.
    subscriber.on('error', this.#onerror);
    this.#subscriber = (subscriber.connect() as Promise<RedisClient>).then(() => subscriber);
    return this.#subscriber;
  }
}

/** Whether the connection that holds `channel`'s subscription is up. */
function subscribed(subscriber: RedisClient, channel: string, sharded: boolean): boolean {
  if (!isCluster(subscriber)) return subscriber.isReady;
  if (!sharded) return subscriber.pubSubNode?.client.isReady === true;
  return subscriber.getSlotMaster(keySlot(channel)).pubSub?.client.isReady === true;
}
