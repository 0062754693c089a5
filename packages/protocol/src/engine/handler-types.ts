import type { JSONRPCNotification, JSONRPCRequest } from '../jsonrpc.js';
import type { MessageExtraInfo } from '../transport.js';
import type { RequestContext } from './request-context.js';

/**
 * What a request handler resolves to: the JSON-RPC `result` object.
 *
 * @example
 * ```ts
 * const result: HandlerResult = { tools: [] };
 * protocol.setRequestHandler('tools/list', () => result);
 * ```
 */
export type HandlerResult = object;

/**
 * Answers one request method: `params` (validated when a schema was given) and the request's context in, the `result` out.
 *
 * @example
 * ```ts
 * const callTool: RequestHandler<CallToolRequestParams, CallToolResult> = async ({ name }, ctx) => {
 *   await ctx.sendProgress({ progress: 1, total: 1 });
 *   return { content: [{ type: 'text', text: `ran ${name}` }] };
 * };
 * protocol.setRequestHandler('tools/call', CallToolRequestParamsSchema, callTool);
 * ```
 */
export type RequestHandler<P = Record<string, unknown>, R extends HandlerResult = HandlerResult> = (
  params: P,
  ctx: RequestContext,
) => R | Promise<R>;

/**
 * Handles one notification. `extra` is what the transport attached to the message (auth, request info);
 * `_meta` survives only if the schema keeps it (zod objects strip unknown keys).
 *
 * @example
 * ```ts
 * const onListChanged: NotificationHandler = (_params, extra) =>
 *   console.log('tools changed', extra?.authInfo?.clientId);
 * protocol.setNotificationHandler('notifications/tools/list_changed', onListChanged);
 * ```
 */
export type NotificationHandler<P = Record<string, unknown>> = (
  params: P,
  extra: MessageExtraInfo | undefined,
) => void | Promise<void>;

/**
 * Answers requests for methods that have no handler; the request is unvalidated beyond its envelope.
 *
 * @example
 * ```ts
 * // A proxy: anything we do not handle ourselves goes upstream.
 * const forward: FallbackRequestHandler = (request, ctx) => {
 *   if (request.method.startsWith('internal/'))
 *     throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
 *   return upstream.forward(request.method, request.params, ctx.signal);
 * };
 * protocol.fallbackRequestHandler = forward;
 * ```
 */
export type FallbackRequestHandler = (
  request: JSONRPCRequest,
  ctx: RequestContext,
) => HandlerResult | Promise<HandlerResult>;

/**
 * Receives notifications for methods that have no handler (and for no built-in either).
 *
 * @example
 * ```ts
 * const logUnhandled: FallbackNotificationHandler = (notification) =>
 *   console.debug('unhandled', notification.method);
 * protocol.fallbackNotificationHandler = logUnhandled;
 * ```
 */
export type FallbackNotificationHandler = (
  notification: JSONRPCNotification,
  extra: MessageExtraInfo | undefined,
) => void | Promise<void>;
