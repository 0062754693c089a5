import type { JSONRPCRequest } from '../jsonrpc.js';
import type { MessagePriority } from '../message-priority.js';
import { DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_QUEUED_REQUESTS } from './defaults.js';
import type { RequestTarget } from './handlers.js';
import type { HandlerContext } from './request-context.js';

/** `maxConcurrentRequests` and `maxQueuedRequests` with their defaults filled in. */
export interface RequestLimits {
  readonly maxConcurrentRequests: number;
  readonly maxQueuedRequests: number;
}

/**
 * The inbound limits of engine options, defaults filled in; throws a `RangeError` naming the option for
 * a value that is not a positive (`maxQueuedRequests`: non-negative) integer or `Infinity`. A server
 * calls it once when it is built, so a bad value fails there rather than at each session's start.
 *
 * @example
 * ```ts
 * const { maxConcurrentRequests } = resolveRequestLimits({ maxConcurrentRequests: 8 });
 * ```
 */
export function resolveRequestLimits(options: {
  maxConcurrentRequests?: number | undefined;
  maxQueuedRequests?: number | undefined;
}): RequestLimits {
  const maxConcurrentRequests = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  const maxQueuedRequests = options.maxQueuedRequests ?? DEFAULT_MAX_QUEUED_REQUESTS;
  if (!isCount(maxConcurrentRequests) || maxConcurrentRequests < 1) {
    throw new RangeError(
      `maxConcurrentRequests must be a positive integer or Infinity, got ${maxConcurrentRequests}`,
    );
  }
  if (!isCount(maxQueuedRequests)) {
    throw new RangeError(
      `maxQueuedRequests must be a non-negative integer or Infinity, got ${maxQueuedRequests}`,
    );
  }
  return { maxConcurrentRequests, maxQueuedRequests };
}

function isCount(value: number): boolean {
  return value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 0);
}

/** A request waiting for a free slot: what the engine needs to start its handler later. */
export interface QueuedRequest {
  readonly ctx: HandlerContext;
  readonly request: JSONRPCRequest;
  readonly target: RequestTarget;
}

/**
 * The engine's inbound request queue (issue #42): at most `maxConcurrent` handlers of normal and bulk
 * requests run at once; the others wait here, normal before bulk, first come first served within a
 * class, and at most `maxQueued` of them. Urgent requests neither wait nor take a slot. Only engines
 * with a finite `maxConcurrentRequests` have one, so the default costs nothing.
 *
 * A lane is an array: removal (a cancelled request) searches it, which the `maxQueued` bound keeps
 * short, and cancellations of queued requests are rare next to arrivals.
 */
export class InboundQueue {
  readonly maxConcurrent: number;
  readonly maxQueued: number;
  #running = 0;
  readonly #normal: QueuedRequest[] = [];
  readonly #bulk: QueuedRequest[] = [];

  constructor(maxConcurrent: number, maxQueued: number) {
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
  }

  /** Requests waiting for a slot. */
  get size(): number {
    return this.#normal.length + this.#bulk.length;
  }

  /** Whether a request of `priority` may start now; a normal or bulk one then holds a slot. */
  tryStart(priority: MessagePriority): boolean {
    if (priority === 'urgent') return true;
    if (this.#running >= this.maxConcurrent) return false;
    this.#running += 1;
    return true;
  }

  /** Whether one more request would exceed `maxQueued`. */
  get full(): boolean {
    return this.size >= this.maxQueued;
  }

  enqueue(entry: QueuedRequest, priority: MessagePriority): void {
    (priority === 'bulk' ? this.#bulk : this.#normal).push(entry);
  }

  /** Takes a cancelled request out before it starts; false when it is not waiting here. */
  remove(ctx: HandlerContext): boolean {
    return dropFrom(this.#normal, ctx) || dropFrom(this.#bulk, ctx);
  }

  /** A handler that held a slot finished. */
  finished(): void {
    this.#running -= 1;
  }

  /** The next request to start when a slot is free (it then holds the slot), else undefined. */
  next(): QueuedRequest | undefined {
    if (this.#running >= this.maxConcurrent) return undefined;
    const entry = this.#normal.shift() ?? this.#bulk.shift();
    if (entry !== undefined) this.#running += 1;
    return entry;
  }

  /** Forgets every waiting request (the connection closed: they never run). */
  clear(): void {
    this.#normal.length = 0;
    this.#bulk.length = 0;
  }
}

function dropFrom(lane: QueuedRequest[], ctx: HandlerContext): boolean {
  const index = lane.findIndex((entry) => entry.ctx === ctx);
  if (index < 0) return false;
  lane.splice(index, 1);
  return true;
}
