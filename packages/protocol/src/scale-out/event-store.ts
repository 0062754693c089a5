import type { JSONRPCMessage } from '../jsonrpc.js';
import type { MessageBus } from './message-bus.js';

/**
 * What {@link EventStore.storeEventAndPublish} publishes: the stored event's id (`e`) and its message
 * (`m`), as `JSON.stringify` writes them. Short keys: one is published per message of a shared GET stream.
 *
 * @example
 * ```ts
 * await bus.subscribe(topic, (payload) => {
 *   const { e, m } = payload as PublishedEvent;
 *   stream.write(m, e);
 * });
 * ```
 */
export interface PublishedEvent {
  e: string;
  m: JSONRPCMessage;
}

/**
 * Storage for resumable SSE streams (2025-11-25 transports, "Resumability and Redelivery"). The server
 * stores every message it sends on a stream of a legacy session and, when a client reconnects with
 * `Last-Event-ID`, replays what followed that event on the same stream only.
 *
 * The shape follows the official SDK's `EventStore`, so a store written for it ports with one change:
 * the priming event (an id with no message) is stored as `message: undefined` and never replayed.
 * It lives in `@x/protocol` so a store package (`@x/redis`) implements it without importing a transport;
 * `InMemoryEventStore` is the process-local default, a shared store lets any process resume any stream.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, eventStore: new InMemoryEventStore() });
 * ```
 */
export interface EventStore {
  /** Stores one event of `streamId`; resolves with its id, unique across every stream of the store. */
  storeEvent(streamId: string, message: JSONRPCMessage | undefined): Promise<string>;
  /**
   * Optional: stores one event as `storeEvent` does, then publishes it as a {@link PublishedEvent}
   * (`{ e: <its id>, m: message }`) on `topic` of `bus`; resolves with the event id once both are done.
   * A store that shares its backend with `bus` does both in one step (`@x/redis`: one Lua script, one
   * round trip, when `bus` is a `RedisMessageBus` on the same client), and is free to store and then
   * publish otherwise. The Streamable HTTP transport calls it for every message of a legacy session's
   * GET stream when a `messageBus` is installed, and stores then publishes itself when it is absent.
   */
  storeEventAndPublish?(
    streamId: string,
    message: JSONRPCMessage,
    bus: MessageBus,
    topic: string,
  ): Promise<string>;
  /** The stream an event id belongs to, when the store can tell without replaying (optional). */
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  /**
   * Sends, in order, every stored message of the stream that `lastEventId` belongs to that came after
   * it. Resolves with that stream's id, or undefined when the event id is unknown (or was evicted).
   */
  replayEventsAfter(
    lastEventId: string,
    sink: { send(eventId: string, message: JSONRPCMessage): Promise<void> | void },
  ): Promise<string | undefined>;
}
