import type { JSONRPCMessage, RequestId } from '../jsonrpc.js';
import { type MessagePriority, PRIORITY_RANK } from '../message-priority.js';
import type { TransportSendOptions } from '../transport.js';
import { orderingKeyOf, sendPriorityOf } from './send-order.js';
import { DEFAULT_MAX_QUEUED_BYTES, DEFAULT_MAX_QUEUED_MESSAGES } from './limit-defaults.js';

/** Bounds of a {@link SendScheduler}. */
export interface SendSchedulerOptions {
  /**
   * Bytes (as the caller counts them) that may wait; past them `push` refuses. Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * Items that may wait; past them `push` refuses. Default 1 000. Transports that bound their queue by
   * bytes only pass `Number.POSITIVE_INFINITY`.
   *
   * @default {@link DEFAULT_MAX_QUEUED_MESSAGES}
   */
  maxQueuedMessages?: number | undefined;
}

/**
 * A {@link SendScheduler} refused an item: it would pass `maxQueuedBytes` or `maxQueuedMessages`
 * (named in `option`). The transport decides what follows (usually: the peer is not reading, close).
 *
 * @example
 * ```ts
 * const refused = scheduler.push(frame, bytes, 'normal', undefined);
 * if (refused !== undefined) console.error(refused.option, refused.limit);
 * ```
 */
export class SendQueueFullError extends Error {
  override readonly name = 'SendQueueFullError';
  /** The option whose limit the item would pass. */
  readonly option: 'maxQueuedBytes' | 'maxQueuedMessages';
  readonly limit: number;
  /** What the queue would have held with the item: bytes or items, as `option` counts. */
  readonly wouldHold: number;

  constructor(option: 'maxQueuedBytes' | 'maxQueuedMessages', limit: number, wouldHold: number) {
    super(`Send queue full: ${wouldHold} over ${option} (${limit})`);
    this.option = option;
    this.limit = limit;
    this.wouldHold = wouldHold;
  }
}

/** Per ordering key, while the queue holds several classes: the last queued item's rank, and how many wait. */
interface KeyState {
  rank: number;
  count: number;
}

/**
 * One class's items in arrival order, three slots each (item, bytes, key) from `head` on: flat, so
 * queuing allocates nothing per item.
 */
interface Lane {
  slots: unknown[];
  head: number;
}

/** Slots per queued item in a lane. */
const SLOTS = 3;
/** A lane's consumed prefix is cut off past this many slots (when it is also half the array). */
const COMPACT_AT = 3 * 1024;
/** `#onlyRank` while the queue is empty. */
const EMPTY = -1;
/** `#onlyRank` while the queue holds more than one class. */
const MIXED = -2;

/**
 * The send queue of a transport: outgoing items the socket or pipe cannot take yet, handed out urgent
 * first (issue #42). The rule, exactly:
 *
 * - Each item has a class (`urgent`, `normal`, `bulk`) and an ordering key (the request it belongs to,
 *   see `orderingKeyOf`; `undefined`: none).
 * - Its *effective* class is the least urgent of its own class and the effective classes of the items
 *   with the same key still waiting. So the items of one key keep the order they were pushed in.
 * - `shift` hands out the first-pushed item of the most urgent non-empty effective class: first in,
 *   first out within a class; an item overtakes only items of less urgent classes, and never one of its
 *   own key. An urgent item with no related waiting item comes out before every waiting normal and bulk
 *   item.
 *
 * Cheap when one class is all there is (the everyday case: every message normal): then it is one array
 * with a moving head, and no key is looked at. Keys are tracked only while classes are mixed.
 *
 * @example
 * ```ts
 * const queue = new SendScheduler<string>({ maxQueuedBytes: 1 << 20 });
 * queue.push('progress', 8, 'bulk', 7);
 * queue.push('pong', 4, 'urgent', 9);
 * queue.push('result', 6, 'urgent', 7); // after its own progress: effective class bulk
 * queue.shift(); // 'pong'
 * ```
 */
export class SendScheduler<T> {
  readonly #maxQueuedBytes: number;
  readonly #maxQueuedMessages: number;
  readonly #lanes: readonly [Lane, Lane, Lane] = [
    { slots: [], head: 0 },
    { slots: [], head: 0 },
    { slots: [], head: 0 },
  ];
  #size = 0;
  #bytes = 0;
  /** The rank every waiting item has, `EMPTY`, or `MIXED` (then `#keys` is kept). */
  #onlyRank = EMPTY;
  /** Keys of waiting items of rank above urgent, while classes are mixed. */
  #keys: Map<RequestId, KeyState> | undefined;

  constructor(options: SendSchedulerOptions = {}) {
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#maxQueuedMessages = options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES;
  }

  /** Items waiting. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of the items waiting, as their `push` counted them. */
  get queuedBytes(): number {
    return this.#bytes;
  }

  /**
   * `push` of the frame of `message`: its class and ordering key read from the message and the engine's
   * send options (`sendPriorityOf`, `orderingKeyOf`). A frame that carries no message (one the transport
   * makes itself) is normal and related to nothing.
   */
  pushMessage(
    item: T,
    bytes: number,
    message: JSONRPCMessage | readonly JSONRPCMessage[] | undefined,
    options: TransportSendOptions | undefined,
  ): SendQueueFullError | undefined {
    if (message === undefined) return this.push(item, bytes, 'normal', undefined);
    return this.push(item, bytes, sendPriorityOf(message, options), orderingKeyOf(message, options));
  }

  /**
   * Queues `item`; returns the error naming the limit it would pass instead (and queues nothing).
   * `priority` defaults to `normal`.
   */
  push(
    item: T,
    bytes: number,
    priority: MessagePriority | undefined,
    key: RequestId | undefined,
  ): SendQueueFullError | undefined {
    if (this.#bytes + bytes > this.#maxQueuedBytes) {
      return new SendQueueFullError('maxQueuedBytes', this.#maxQueuedBytes, this.#bytes + bytes);
    }
    if (this.#size >= this.#maxQueuedMessages) {
      return new SendQueueFullError('maxQueuedMessages', this.#maxQueuedMessages, this.#size + 1);
    }
    let rank = priority === undefined ? 1 : PRIORITY_RANK[priority];
    const only = this.#onlyRank;
    if (only === EMPTY) {
      this.#onlyRank = rank;
    } else if (only !== rank) {
      const keys = only === MIXED ? (this.#keys as Map<RequestId, KeyState>) : this.#indexKeys(only);
      this.#onlyRank = MIXED;
      if (key !== undefined) rank = this.#track(keys, key, rank);
    }
    // Same class as every waiting item: it cannot be held back by any of them, and no key is looked at.
    const lane = this.#lanes[rank] as Lane;
    lane.slots.push(item, bytes, key);
    this.#size++;
    this.#bytes += bytes;
    return undefined;
  }

  /** The item `shift` would hand out next, left in the queue; undefined when empty. */
  peek(): T | undefined {
    if (this.#size === 0) return undefined;
    let rank = this.#onlyRank;
    if (rank === MIXED) {
      rank = 0;
      while ((this.#lanes[rank] as Lane).head === (this.#lanes[rank] as Lane).slots.length) rank++;
    }
    const lane = this.#lanes[rank] as Lane;
    return lane.slots[lane.head] as T;
  }

  /** The next item to send (see the class notes), removed from the queue; undefined when empty. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    let rank = this.#onlyRank;
    if (rank === MIXED) {
      rank = 0;
      while ((this.#lanes[rank] as Lane).head === (this.#lanes[rank] as Lane).slots.length) rank++;
    }
    const lane = this.#lanes[rank] as Lane;
    const slots = lane.slots;
    const at = lane.head;
    const item = slots[at] as T;
    const bytes = slots[at + 1] as number;
    const key = slots[at + 2] as RequestId | undefined;
    slots[at] = undefined;
    slots[at + 2] = undefined;
    lane.head = at + SLOTS;
    this.#size--;
    this.#bytes -= bytes;
    if (lane.head === slots.length) {
      lane.slots = [];
      lane.head = 0;
    } else if (lane.head > COMPACT_AT && lane.head * 2 > slots.length) {
      lane.slots = slots.slice(lane.head);
      lane.head = 0;
    }
    const keys = this.#keys;
    if (keys !== undefined && key !== undefined && rank > 0) {
      const state = keys.get(key);
      if (state !== undefined && --state.count === 0) keys.delete(key);
    }
    if (this.#size === 0) {
      this.#onlyRank = EMPTY;
      this.#keys = undefined;
    } else if (this.#onlyRank === MIXED && lane.head === 0 && lane.slots.length === 0) {
      this.#settleIfSingle();
    }
    return item;
  }

  /** Removes and returns every waiting item, in the order `shift` would have handed them out. */
  clear(): T[] {
    const items: T[] = [];
    while (this.#size > 0) items.push(this.shift() as T);
    return items;
  }

  /** Effective rank of an item of `key` pushed at `rank` into a mixed queue; records it. */
  #track(keys: Map<RequestId, KeyState>, key: RequestId, rank: number): number {
    const state = keys.get(key);
    if (state === undefined) {
      if (rank > 0) keys.set(key, { rank, count: 1 });
      return rank;
    }
    // Ranks of one key's waiting items never decrease in push order, so the last one is their maximum.
    if (state.rank > rank) rank = state.rank;
    state.rank = rank;
    state.count++;
    return rank;
  }

  /** The queue held class `rank` only and now gets another: index the keys waiting in it. */
  #indexKeys(rank: number): Map<RequestId, KeyState> {
    const keys = new Map<RequestId, KeyState>();
    this.#keys = keys;
    if (rank === 0) return keys;
    const lane = this.#lanes[rank] as Lane;
    const slots = lane.slots;
    for (let at = lane.head + 2; at < slots.length; at += SLOTS) {
      const key = slots[at] as RequestId | undefined;
      if (key === undefined) continue;
      const state = keys.get(key);
      if (state === undefined) keys.set(key, { rank, count: 1 });
      else state.count++;
    }
    return keys;
  }

  /** A lane emptied: when one class is left, go back to the one-class fast path. */
  #settleIfSingle(): void {
    let left = EMPTY;
    for (let rank = 0; rank < 3; rank++) {
      const lane = this.#lanes[rank] as Lane;
      if (lane.head === lane.slots.length) continue;
      if (left !== EMPTY) return;
      left = rank;
    }
    this.#onlyRank = left;
    this.#keys = undefined;
  }
}
