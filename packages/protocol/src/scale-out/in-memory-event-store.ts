import type { JSONRPCMessage } from '../jsonrpc.js';
import type { EventStore } from './event-store.js';

/**
 * Options for {@link InMemoryEventStore}.
 *
 * @example
 * ```ts
 * const eventStore = new InMemoryEventStore({ maxEventsPerStream: 200, maxEvents: 20_000 });
 * ```
 */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1 000. */
  maxEventsPerStream?: number | undefined;
  /** Events kept in total; the least recently written streams are dropped whole. Default 100 000. */
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
    this.#maxPerStream = options.maxEventsPerStream ?? 1_000;
    this.#maxTotal = options.maxEvents ?? 100_000;
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
