import type { JSONRPCMessage, RequestId } from '../jsonrpc.js';
import { defaultMessagePriority, type MessagePriority } from '../message-priority.js';
import type { TransportSendOptions } from '../transport.js';

// What a transport pushes into its `SendScheduler` with each waiting message (issue #42): its class and
// its ordering key, both read from the message and the engine's send options.

/**
 * The ordering key of an outgoing message: what it must stay behind. `relatedRequestId` when the sender
 * named one (the engine does for answers and for a handler's notifications, progress among them);
 * otherwise an answer's or a request's own id, and a cancellation's `requestId` (so it never overtakes
 * the request it cancels). Other notifications have none. A batch (an array) has none: it is queued
 * as `bulk` (see {@link sendPriorityOf}), which nothing related follows.
 *
 * @example
 * ```ts
 * orderingKeyOf({ jsonrpc: '2.0', id: 3, result: {} }, undefined); // 3
 * ```
 */
export function orderingKeyOf(
  message: JSONRPCMessage | readonly JSONRPCMessage[],
  options: TransportSendOptions | undefined,
): RequestId | undefined {
  const related = options?.relatedRequestId;
  if (related !== undefined) return related;
  if (Array.isArray(message)) return undefined;
  const single = message as { id?: unknown; method?: unknown; params?: unknown };
  const id = single.id;
  if (typeof id === 'string' || typeof id === 'number') return id;
  if (single.method === 'notifications/cancelled') {
    const requestId = (single.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof requestId === 'string' || typeof requestId === 'number') return requestId;
  }
  return undefined;
}

/**
 * The class an outgoing message is queued in: `options.priority` (set by the engine), else
 * {@link defaultMessagePriority}. A batch of answers (2025-03-26) is `bulk`: it has several keys and no
 * single one to stay behind, so it overtakes nothing.
 *
 * @example
 * ```ts
 * sendPriorityOf({ jsonrpc: '2.0', id: 1, method: 'ping' }, undefined); // 'urgent'
 * ```
 */
export function sendPriorityOf(
  message: JSONRPCMessage | readonly JSONRPCMessage[],
  options: TransportSendOptions | undefined,
): MessagePriority {
  const chosen = options?.priority;
  if (chosen !== undefined) return chosen;
  if (Array.isArray(message)) return 'bulk';
  return defaultMessagePriority(message as JSONRPCMessage);
}
