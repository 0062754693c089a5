import type { JSONRPCMessage } from '../jsonrpc.js';
import type { EventStore } from './event-store.js';

/**
 * Events an event store keeps per stream for replay, the oldest dropped first (`maxEventsPerStream`,
 * in memory and on Redis): 1 000, more than a client misses in a reconnect of a few seconds.
 *
 * @example
 * ```ts
 * const eventStore = new InMemoryEventStore({ maxEventsPerStream: DEFAULT_MAX_EVENTS_PER_STREAM / 5 });
 * ```
 */
export const DEFAULT_MAX_EVENTS_PER_STREAM = 1_000;

/**
 * Events an in-memory event store keeps in total, the least recently written streams dropped whole
 * (`maxEvents`): 100 000, a bound on the memory of one process whatever the number of streams.
 *
 * @example
 * ```ts
 * const eventStore = new InMemoryEventStore({ maxEvents: DEFAULT_MAX_EVENTS / 5 });
 * ```
 */
export const DEFAULT_MAX_EVENTS = 100_000;

/**
 * Options for {@link InMemoryEventStore}.
 *
 * @example
 * ```ts
 * const eventStore = new InMemoryEventStore({ maxEventsPerStream: 200, maxEvents: 20_000 });
 * ```
 */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default {@link DEFAULT_MAX_EVENTS_PER_STREAM} (1 000). */
  maxEventsPerStream?: number | undefined;
  /** Events kept in total; the least recently written streams are dropped whole. Default {@link DEFAULT_MAX_EVENTS} (100 000). */
  maxEvents?: number | undefined;
}

interface StoredStream {
  /** Sequence number of `events[0]`. */
  first: number;
  next: number;
  events: Array<JSONRPCMessage | undefined>;
}

/**
 * A bounded, process-local {@link EventStore}: per-stream and total caps, so a server whose clients
 * vanish mid-stream holds a fixed amount of memory. Event ids are `<streamId>#<sequence>`.
 *
 * @example
 * ```ts
 * const eventStore = new InMemoryEventStore({ maxEventsPerStream: 500, maxEvents: 50_000 });
 * ```
 */
export class InMemoryEventStore implements EventStore {
  #streams = new Map<string, StoredStream>();
  #total = 0;
  #maxPerStream: number;
  #maxTotal: number;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxPerStream = options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM;
    this.#maxTotal = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  }

  /** Events currently held, over all streams. */
  get size(): number {
    return this.#total;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
    let stream = this.#streams.get(streamId);
    if (stream === undefined) {
      stream = { first: 0, next: 0, events: [] };
    } else {
      // Re-inserting keeps the map in least-recently-written order for eviction.
      this.#streams.delete(streamId);
    }
    this.#streams.set(streamId, stream);
    const seq = stream.next++;
    stream.events.push(message);
    this.#total++;
    if (stream.events.length > this.#maxPerStream) {
      stream.events.shift();
      stream.first++;
      this.#total--;
    }
    while (this.#total > this.#maxTotal) {
      const [oldestId, oldest] = this.#streams.entries().next().value as [string, StoredStream];
      if (oldestId === streamId) {
        oldest.events.shift();
        oldest.first++;
        this.#total--;
      } else {
        this.#streams.delete(oldestId);
        this.#total -= oldest.events.length;
      }
    }
    return `${streamId}#${seq}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const hash = eventId.lastIndexOf('#');
    return hash > 0 && this.#streams.has(eventId.slice(0, hash)) ? eventId.slice(0, hash) : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    sink: { send(eventId: string, message: JSONRPCMessage): Promise<void> | void },
  ): Promise<string | undefined> {
    const hash = lastEventId.lastIndexOf('#');
    if (hash <= 0) return undefined;
    const streamId = lastEventId.slice(0, hash);
    const seq = Number(lastEventId.slice(hash + 1));
    const stream = this.#streams.get(streamId);
    if (stream === undefined || !Number.isSafeInteger(seq) || seq >= stream.next) return undefined;
    // The cursor itself must still be held; otherwise events after it were evicted and lost.
    if (seq < stream.first - 1) return undefined;
    const snapshot = stream.events.slice(Math.max(0, seq + 1 - stream.first));
    let at = Math.max(seq + 1, stream.first);
    for (const message of snapshot) {
      const id = `${streamId}#${at++}`;
      if (message !== undefined) await sink.send(id, message);
    }
    return streamId;
  }
}
