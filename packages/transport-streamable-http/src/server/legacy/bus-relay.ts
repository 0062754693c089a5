import {
  type EventStore,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  SENT,
  type Unsubscribe,
} from '@x/protocol/core';
import {
  globalRequestId,
  isBroadcast,
  isStreamPayload,
  localRequestId,
  repliesTopic,
  type SessionBus,
  streamTopic,
} from './session-bus.js';
import type { StreamRouter } from './stream-router.js';

/** Options for {@link BusRelay}. */
export interface BusRelayOptions {
  /** `messageBus` and this process's `instanceId`. */
  shared: SessionBus;
  sessionId: string;
  /** Where the GET stream's messages are stored before they are published; undefined without one. */
  eventStore: EventStore | undefined;
  /** The session's streams: the relay reads and writes its GET stream. */
  router: StreamRouter;
  reportError: (error: unknown) => void;
}

/**
 * A legacy session served by several processes at once (DESIGN §9, topics in `session-bus.ts`). The
 * GET stream lives on one process; the relay gets every message for it there: what this process raises
 * is stored and published on `stream:<streamId>`, and the process holding the stream (this one or
 * another) writes what it hears there. Server→client request ids carry this process's `instanceId`, so
 * a client's answer POSTed to another process finds its way back over `replies:<instanceId>`.
 *
 * @example
 * ```ts
 * const relay = new BusRelay({ shared: { bus, instanceId }, sessionId, eventStore, router, reportError });
 * await relay.listen(); // this process holds the GET stream
 * await relay.publishToStream({ jsonrpc: '2.0', method: 'notifications/message', params });
 * ```
 */
export class BusRelay {
  readonly #options: BusRelayOptions;
  /** Event ids the last resume of the GET stream replayed: their late live copies are dropped. */
  #replayed: ReadonlySet<string> | undefined;
  /** The `stream:<id>` subscription of the GET stream, while this process holds it. */
  #listening: Promise<Unsubscribe | undefined> | undefined;

  constructor(options: BusRelayOptions) {
    this.#options = options;
  }

  /** A server→client request with an id unique across processes (other messages as they are). */
  outgoing(message: JSONRPCMessage): JSONRPCMessage {
    if (!isJSONRPCRequest(message)) return message;
    return { ...message, id: globalRequestId(this.#options.shared.instanceId, message.id) };
  }

  /**
   * Sends a message of the GET stream through the bus. Always through the bus, even when the stream is
   * held here: one path, so the stream carries messages in the order they were stored, whichever
   * process raised them. Change notifications every process raises for its own copy of the session
   * (`isBroadcast`) go only from the process holding the stream, or the client would hear each once per
   * process.
   */
  publishToStream(message: JSONRPCMessage): Promise<void> {
    const channel = this.#options.router.standalone;
    if (!channel.connected && isBroadcast(message)) return SENT;
    const { shared, eventStore } = this.#options;
    // One message at a time per stream (`tail`), so the stream carries them in stored order. A store
    // that can store and publish in one step (`storeEventAndPublish`: one Redis round trip with
    // `@x/redis`) does; otherwise two steps.
    const next = channel.tail.then(async () => {
      const topic = streamTopic(channel.streamId);
      if (eventStore?.storeEventAndPublish !== undefined) {
        await eventStore.storeEventAndPublish(channel.streamId, message, shared.bus, topic);
        return;
      }
      let eventId: string | undefined;
      if (eventStore !== undefined) eventId = await eventStore.storeEvent(channel.streamId, message);
      await shared.bus.publish(topic, { e: eventId, m: message });
    });
    channel.tail = next.catch((error: unknown) => this.#options.reportError(error));
    return next;
  }

  /**
   * A POST's messages with the answers to server→client requests routed: ours restored to the id our
   * engine knows, another process's published to it (and left out here).
   */
  routeReplies(messages: readonly JSONRPCMessage[]): readonly JSONRPCMessage[] {
    const { shared, sessionId, reportError } = this.#options;
    let routed: (JSONRPCMessage | undefined)[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as JSONRPCMessage;
      if (!isJSONRPCResponse(message)) continue;
      const origin = localRequestId(message.id);
      if (origin === undefined) continue;
      routed ??= [...messages];
      if (origin.instanceId === shared.instanceId) {
        routed[i] = { ...message, id: origin.id } as JSONRPCMessage;
      } else {
        routed[i] = undefined;
        shared.bus
          .publish(repliesTopic(origin.instanceId), { s: sessionId, m: message })
          .catch((error: unknown) => reportError(error));
      }
    }
    return routed === undefined ? messages : routed.filter((message) => message !== undefined);
  }

  /** Subscribes the GET stream to the messages raised for it, on any process; once per holding. */
  listen(): Promise<unknown> {
    const { shared, router, reportError } = this.#options;
    this.#listening ??= shared.bus
      .subscribe(streamTopic(router.standalone.streamId), (payload) => {
        if (!isStreamPayload(payload)) return;
        // Stored before the last replay read the store, published after it ended: already sent.
        if (payload.e !== undefined && this.#replayed?.has(payload.e) === true) return;
        const unencodable = router.standalone.write(payload.m, payload.e);
        if (unencodable !== undefined) reportError(unencodable);
      })
      .catch((error: unknown) => {
        reportError(error);
        this.#listening = undefined;
        return undefined;
      });
    return this.#listening;
  }

  /** Ends the subscription once no GET stream connection of this session is attached here any more. */
  unlisten(): void {
    if (this.#options.router.hasOpenStream) return;
    this.#unsubscribe(this.#options.reportError);
  }

  /** Remembers what a resume of the GET stream replayed, so live copies of those events are dropped. */
  markReplayed(eventIds: ReadonlySet<string>): void {
    this.#replayed = eventIds;
  }

  /** Ends the subscription, whatever the stream's state: the session closes, a failure has no one to tell. */
  stop(): void {
    this.#unsubscribe(() => undefined);
  }

  #unsubscribe(onFailure: (error: unknown) => void): void {
    const listening = this.#listening;
    if (listening === undefined) return;
    this.#listening = undefined;
    void listening.then((unsubscribe) => unsubscribe?.()).catch(onFailure);
  }
}
