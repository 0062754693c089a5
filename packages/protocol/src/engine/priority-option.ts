import { copyWith } from '../copy-with.js';
import type { JSONRPCNotification, JSONRPCRequest, MetaObject } from '../jsonrpc.js';
import {
  BULK_METHODS,
  type MessagePriority,
  PRIORITY_META_KEY,
  URGENT_METHODS,
} from '../message-priority.js';

/**
 * What the engine tells a `priority` option about the message it asks for (issue #42): whether the
 * message arrived (`'inbound'`: a request about to be handled or queued) or is being sent
 * (`'outbound'`: a request or notification this side sends; answers take their request's class).
 *
 * @example
 * ```ts
 * const priority = (message: JSONRPCRequest | JSONRPCNotification, context: PriorityContext) =>
 *   context.direction === 'inbound' && message.method === 'resources/read' ? 'bulk' : undefined;
 * ```
 */
export interface PriorityContext {
  readonly direction: 'inbound' | 'outbound';
}

/**
 * The `priority` option of the engine, `Client`, `Server` and `McpServer`: the class of a message
 * (`MessagePriority`), or undefined for the default (`defaultMessagePriority`; inbound, a peer's
 * `_meta` key cannot make a request urgent, see `ProtocolOptions.priority`). Called once per request
 * or notification, with the JSON-RPC message as it arrived or will be sent; a tool's name is in
 * `params.name` of its `tools/call`.
 *
 * @example
 * ```ts
 * const priority: PriorityFunction = (message) =>
 *   message.method === 'tools/call' && message.params?.['name'] === 'export' ? 'bulk' : undefined;
 * const server = new McpServer(info, { priority, maxConcurrentRequests: 8 });
 * ```
 */
export type PriorityFunction = (
  message: JSONRPCRequest | JSONRPCNotification,
  context: PriorityContext,
) => MessagePriority | undefined;

/** Shared, so that asking the option allocates nothing. */
export const INBOUND: PriorityContext = { direction: 'inbound' };
export const OUTBOUND: PriorityContext = { direction: 'outbound' };

/** The class of each method that has a default other than normal: one lookup, inlinable. */
export const METHOD_CLASS: ReadonlyMap<string, MessagePriority> = new Map<string, MessagePriority>([
  ...BULK_METHODS.map((method) => [method, 'bulk'] as const),
  ...URGENT_METHODS.map((method) => [method, 'urgent'] as const),
]);

/**
 * The class of an arriving request: the local `priority` option's choice, else the default. The
 * default is `defaultMessagePriority`'s, with one difference: the peer's `_meta` key may move a
 * request to `normal` or `bulk` but not to `urgent`, since urgent requests run past
 * `maxConcurrentRequests` and a peer must not be able to lift that bound by asking.
 */
export function inboundPriority(
  request: JSONRPCRequest,
  meta: MetaObject | undefined,
  option: PriorityFunction | undefined,
): MessagePriority {
  if (option !== undefined) {
    const chosen = option(request, INBOUND);
    if (chosen !== undefined) return chosen;
  }
  const byMethod = METHOD_CLASS.get(request.method);
  if (byMethod === 'urgent') return byMethod;
  const asked = meta?.[PRIORITY_META_KEY];
  if (asked === 'bulk' || asked === 'normal') return asked;
  return byMethod ?? 'normal';
}

/**
 * `params` with `_meta[PRIORITY_META_KEY]` set to `priority`, on a copy: a per-request `priority`
 * travels so that the peer queues the request, and sends its answer and progress, in that class.
 */
export function withPriorityMeta(
  params: Record<string, unknown> | undefined,
  priority: MessagePriority,
): Record<string, unknown> {
  const meta = params?.['_meta'];
  const base = typeof meta === 'object' && meta !== null ? meta : undefined;
  return copyWith(params, { _meta: copyWith(base, { [PRIORITY_META_KEY]: priority }) });
}
