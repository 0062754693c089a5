import type { ProgressToken, RequestId } from '../jsonrpc.js';
import type { ProgressUpdate } from './types.js';

/**
 * Readers for the params of the two notifications the engine itself consumes. They run on every
 * progress update, so they are plain type checks rather than schemas (DESIGN §3: hot path).
 * Malformed params yield `undefined` and the notification is ignored (spec: basic/utilities/
 * cancellation, "Invalid cancellation notifications SHOULD be ignored").
 */

/**
 * Method of the notification that cancels a request (spec: basic/utilities/cancellation).
 *
 * @example
 * ```ts
 * await protocol.notification({
 *   method: CANCELLED_NOTIFICATION,
 *   params: { requestId: 7, reason: 'user pressed stop' },
 * });
 * ```
 */
export const CANCELLED_NOTIFICATION = 'notifications/cancelled';
/**
 * Method of the notification that reports progress on a request (spec: basic/utilities/progress).
 *
 * @example
 * ```ts
 * transport.onmessage = (message) => {
 *   if (isJSONRPCNotification(message) && message.method === PROGRESS_NOTIFICATION)
 *     console.log(message.params);
 * };
 * ```
 */
export const PROGRESS_NOTIFICATION = 'notifications/progress';

/**
 * Params of `notifications/cancelled`, as `readCancelledParams` returns them.
 *
 * @example
 * ```ts
 * const params: CancelledParams | undefined = readCancelledParams({ requestId: 7, reason: 'timeout' });
 * // { requestId: 7, reason: 'timeout' }
 * ```
 */
export interface CancelledParams {
  requestId: RequestId;
  reason?: string | undefined;
}

/**
 * Params of `notifications/progress`, as `readProgressParams` returns them.
 *
 * @example
 * ```ts
 * const params: ProgressParams | undefined = readProgressParams({
 *   progressToken: 'job-1',
 *   progress: 5,
 *   total: 10,
 * });
 * ```
 */
export interface ProgressParams extends ProgressUpdate {
  progressToken: ProgressToken;
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Reads `notifications/cancelled` params, or `undefined` when they are malformed (ignore those).
 *
 * @example
 * ```ts
 * if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
 *   const cancelled = readCancelledParams(message.params);
 *   if (cancelled) inFlight.get(cancelled.requestId)?.abort(cancelled.reason);
 * }
 * ```
 */
export function readCancelledParams(
  params: Record<string, unknown> | undefined,
): CancelledParams | undefined {
  // 2025-11-25 made requestId optional (task cancellation uses tasks/cancel); without it there is
  // nothing for the engine to abort.
  if (params === undefined || !isId(params['requestId'])) return undefined;
  const reason = params['reason'];
  if (reason !== undefined && typeof reason !== 'string') return undefined;
  return params as unknown as CancelledParams;
}

/**
 * Reads `notifications/progress` params, or `undefined` when they are malformed.
 *
 * @example
 * ```ts
 * readProgressParams({ progressToken: 1, progress: 0.5 }); // { progressToken: 1, progress: 0.5 }
 * readProgressParams({ progressToken: 1, progress: '50%' }); // undefined
 * ```
 */
export function readProgressParams(params: Record<string, unknown> | undefined): ProgressParams | undefined {
  if (params === undefined || !isId(params['progressToken'])) return undefined;
  if (typeof params['progress'] !== 'number') return undefined;
  const total = params['total'];
  if (total !== undefined && typeof total !== 'number') return undefined;
  const message = params['message'];
  if (message !== undefined && typeof message !== 'string') return undefined;
  return params as unknown as ProgressParams;
}
