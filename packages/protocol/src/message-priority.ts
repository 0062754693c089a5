import type { JSONRPCMessage } from './jsonrpc.js';

/**
 * The class a message is scheduled in (issue #42): `urgent` messages are handled and sent before
 * `normal` ones, `normal` before `bulk`, wherever x-mcp holds messages in a queue (the engine's inbound
 * request queue, a transport's send queue). Within a class, first in, first out; across classes, a
 * message never overtakes one it has an ordering relation with (see `docs/message-ordering.md`).
 *
 * @example
 * ```ts
 * const priority: MessagePriority = message.method === 'tools/call' ? 'bulk' : 'normal';
 * ```
 */
export type MessagePriority = 'urgent' | 'normal' | 'bulk';

/**
 * Rank of each class, lower first: the index a scheduler sorts by.
 *
 * @example
 * ```ts
 * const first = PRIORITY_RANK.urgent < PRIORITY_RANK.bulk; // true
 * ```
 */
export const PRIORITY_RANK: Readonly<Record<MessagePriority, number>> = { urgent: 0, normal: 1, bulk: 2 };

/**
 * The `params._meta` key a request or notification may carry to name its own class (`"urgent"`,
 * `"normal"` or `"bulk"`); anything else there is ignored. A request's class is also its answer's class
 * on the side that handles it (its progress stays bulk); a peer's key may lower its request to normal or
 * bulk, never raise it to urgent (see `docs/message-ordering.md`).
 *
 * @example
 * ```ts
 * await client.callTool({ name: 'report', arguments: {}, _meta: { [PRIORITY_META_KEY]: 'bulk' } });
 * ```
 */
export const PRIORITY_META_KEY = 'dev.x-mcp/priority';

/**
 * Methods whose messages are urgent by default: cancellation, the liveness check (and so the
 * heartbeat), the handshake and task cancellation. Answers to these and every error answer are urgent
 * too (the sender knows which request an answer belongs to; see `defaultMessagePriority`).
 *
 * @example
 * ```ts
 * if (URGENT_METHODS.includes('ping')) console.log('pings jump the queue');
 * ```
 */
export const URGENT_METHODS: readonly string[] = [
  'notifications/cancelled',
  'ping',
  'initialize',
  'notifications/initialized',
  'tasks/cancel',
];

/**
 * Methods whose messages are bulk by default: progress, logging and list-change notifications, the
 * chatter a flood is made of.
 *
 * @example
 * ```ts
 * if (BULK_METHODS.includes('notifications/progress')) console.log('progress waits behind results');
 * ```
 */
export const BULK_METHODS: readonly string[] = [
  'notifications/progress',
  'notifications/message',
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
];

const URGENT = new Set(URGENT_METHODS);
const BULK = new Set(BULK_METHODS);

/** Reads `params._meta[PRIORITY_META_KEY]` when it names a class. */
export function priorityFromMeta(message: JSONRPCMessage): MessagePriority | undefined {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const value = (meta as Record<string, unknown>)[PRIORITY_META_KEY];
  return value === 'urgent' || value === 'normal' || value === 'bulk' ? value : undefined;
}

/**
 * The class of a message when nobody chose one: its `_meta` key, else by method (`URGENT_METHODS`,
 * `BULK_METHODS`), else an error answer is urgent and anything else normal. A result answer's class
 * is its request's, which only the engine knows: it passes it as `TransportSendOptions.priority`, and
 * a transport falls back to this function when the option is absent.
 *
 * @example
 * ```ts
 * defaultMessagePriority({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }); // 'bulk'
 * ```
 */
export function defaultMessagePriority(message: JSONRPCMessage): MessagePriority {
  const method = (message as { method?: unknown }).method;
  if (typeof method === 'string') {
    const chosen = priorityFromMeta(message);
    if (chosen !== undefined) return chosen;
    if (URGENT.has(method)) return 'urgent';
    if (BULK.has(method)) return 'bulk';
    return 'normal';
  }
  return 'error' in message ? 'urgent' : 'normal';
}
