import type { EventStore, JSONRPCMessage, RequestId } from '@x/protocol/core';
import { encodeMessage, encodedText } from '../encode-message.js';
import type { ResponseChannel } from '../response-channel.js';
import { SseWriter } from '../sse-writer.js';
import type { BusRelay } from './bus-relay.js';
import type { StreamRouter } from './stream-router.js';

/** Options for {@link EventReplay}. */
export interface EventReplayOptions {
  eventStore: EventStore;
  /** The session's streams: what is stored is written to them, what is resumed is one of them. */
  router: StreamRouter;
  /** The `retry` (ms) a priming event carries (`retryIntervalMs`). */
  retryMs: number;
  /** Keep-alive comments on a resumed connection (`keepAliveMs`). */
  keepAliveMs: number;
  /** Bytes a resumed connection's reader may fall behind before it is dropped (`maxBufferedBytes`). */
  maxBufferedBytes: number;
  /** Shared mode: the GET stream's messages from other processes, held during a replay of that stream. */
  relay: BusRelay | undefined;
  reportError: (error: unknown) => void;
}

/**
 * How a `Last-Event-ID` resumption ended: the store failed (503, never "unknown": a 400 makes a client
 * give up resuming), the id is not of this session (400), the replay was all that stream had left (its
 * POST already carried every response), or the connection now carries the stream.
 */
export type ReplayOutcome =
  | { kind: 'store-failed'; error: unknown }
  | { kind: 'unknown' }
  | { kind: 'complete'; writer: SseWriter }
  | { kind: 'attached'; writer: SseWriter; channel: ResponseChannel };

/**
 * The event store side of a legacy session (2025-11-25 "Resumability and Redelivery"): every message
 * of an SSE stream is stored before it is written, so it carries an event id; a stream starts with a
 * priming event; a client that reconnects with `Last-Event-ID` gets what followed that event on the same
 * stream, then the live messages the replay did not already carry.
 *
 * @example
 * ```ts
 * const replay = new EventReplay({ eventStore: new InMemoryEventStore(), router, retryMs: 1_000, relay: undefined, reportError });
 * await replay.emit(channel, message, undefined); // stored, then written with its event id
 * const outcome = await replay.resume(lastEventId); // the new connection's writer, and its stream
 * ```
 */
export class EventReplay {
  readonly #options: EventReplayOptions;
  /** Answers that left the router's in-flight table but are still on their way to the store. */
  #answersBeingStored = 0;

  constructor(options: EventReplayOptions) {
    this.#options = options;
  }

  /** Answers being stored: drain must not end a POST stream while its result is on its way. */
  get answersBeingStored(): number {
    return this.#answersBeingStored;
  }

  /**
   * Stores `message` as the next event of `channel`, then writes it with its event id; one at a time
   * per stream (`tail`), so events keep their order. `settles` names the request a response answers.
   */
  emit(channel: ResponseChannel, message: JSONRPCMessage, settles: RequestId | undefined): Promise<void> {
    const { eventStore, router, reportError } = this.#options;
    const next = channel.tail.then(async () => {
      let eventId: string | undefined;
      try {
        eventId = await eventStore.storeEvent(channel.streamId, message);
      } catch (error) {
        // The message still goes out (without an event id it just cannot be replayed): a failed store
        // write must not leave the request that waits for it unanswered.
        reportError(error);
      }
      const unencodable = channel.write(message, eventId);
      if (unencodable !== undefined) reportError(unencodable);
      if (settles !== undefined) router.settle(channel, settles);
    });
    channel.tail = next.catch((error: unknown) => reportError(error));
    if (settles === undefined) return next;
    this.#answersBeingStored++;
    return next.finally(() => {
      this.#answersBeingStored--;
    });
  }

  /**
   * Starts a resumable stream with a priming event (an id, no data) and its `retry`, so a client that
   * loses the connection before the first message can still resume. A store failure is reported; the
   * stream goes on without one.
   */
  async prime(writer: SseWriter, streamId: string): Promise<void> {
    try {
      writer.prime(await this.#options.eventStore.storeEvent(streamId, undefined), this.#options.retryMs);
    } catch (error) {
      this.#options.reportError(error);
    }
  }

  /**
   * Opens a connection that replays what followed `lastEventId` on its stream, then carries that stream
   * if it still has messages to send. Live frames of the candidate streams are held back during the
   * replay (see `ResponseChannel.beginReplay`): of the one stream when the store can name it up front,
   * else of every resumable stream of the session.
   */
  async resume(lastEventId: string): Promise<ReplayOutcome> {
    const { eventStore, router, relay, reportError } = this.#options;
    let target: ResponseChannel | undefined;
    const writer: SseWriter = new SseWriter({
      keepAliveMs: this.#options.keepAliveMs,
      maxBufferedBytes: this.#options.maxBufferedBytes,
      onDisconnect: (error) => {
        // Dropped for falling behind: what it held is lost to this connection; say so.
        if (error !== undefined) reportError(error);
        target?.detach(writer);
        if (router.isStandalone(target)) relay?.unlisten();
      },
    });
    let known: string | undefined;
    try {
      known = await eventStore.getStreamIdForEventId?.(lastEventId);
    } catch (error) {
      writer.close();
      return { kind: 'store-failed', error };
    }
    const candidates = known === undefined ? router.resumable() : [router.channel(known)];
    for (const channel of candidates) channel?.beginReplay();
    // Shared mode: live messages from other processes are held with the rest during the replay.
    if (relay !== undefined && candidates.includes(router.standalone)) await relay.listen();
    const replayed = new Set<string>();
    let streamId: string | undefined;
    try {
      streamId = await eventStore.replayEventsAfter(lastEventId, {
        send: (eventId, message) => {
          replayed.add(eventId);
          // Replayed as first sent: a response JSON could not encode went out as its -32603 error.
          writer.event(encodedText(encodeMessage(message)), eventId);
        },
      });
    } catch (error) {
      for (const channel of candidates) channel?.abortReplay();
      writer.close();
      return { kind: 'store-failed', error };
    }
    // Never replay another session's stream ("MUST NOT replay messages that would have been delivered
    // on a different stream").
    const ours = streamId !== undefined && router.owns(streamId);
    target = ours && streamId !== undefined ? router.channel(streamId) : undefined;
    for (const channel of candidates) if (channel !== undefined && channel !== target) channel.abortReplay();
    if (!ours) {
      writer.close();
      return { kind: 'unknown' };
    }
    if (target === undefined) {
      // That POST stream already carried all its responses: the replay was everything left.
      writer.close();
      return { kind: 'complete', writer };
    }
    target.endReplay(writer, replayed);
    if (relay !== undefined && router.isStandalone(target)) relay.markReplayed(replayed);
    return { kind: 'attached', writer, channel: target };
  }
}
