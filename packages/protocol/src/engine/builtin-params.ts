import type { ProgressToken, RequestId } from '../jsonrpc.js';
import type { ProgressUpdate } from './types.js';

/**
 * Readers for the params of the two notifications the engine itself consumes. They run on every
 * progress update, so they are plain type checks rather than schemas (DESIGN §3: hot path).
 * Malformed params yield `undefined` and the notification is ignored (spec: basic/utilities/
 * cancellation, "Invalid cancellation notifications SHOULD be ignored").
 */

export const CANCELLED_NOTIFICATION = 'notifications/cancelled';
export const PROGRESS_NOTIFICATION = 'notifications/progress';

export interface CancelledParams {
  requestId: RequestId;
  reason?: string | undefined;
}

export interface ProgressParams extends ProgressUpdate {
  progressToken: ProgressToken;
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

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

export function readProgressParams(params: Record<string, unknown> | undefined): ProgressParams | undefined {
  if (params === undefined || !isId(params['progressToken'])) return undefined;
  if (typeof params['progress'] !== 'number') return undefined;
  const total = params['total'];
  if (total !== undefined && typeof total !== 'number') return undefined;
  const message = params['message'];
  if (message !== undefined && typeof message !== 'string') return undefined;
  return params as unknown as ProgressParams;
}
