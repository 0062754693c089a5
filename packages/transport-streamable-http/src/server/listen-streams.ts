import { ErrorCode, type RequestId } from '@x/protocol/core';
import type { EndpointState } from './endpoint-state.js';
import { errorResponse } from './http-responses.js';

/**
 * Default of `maxListenStreams`: `subscriptions/listen` streams (2026-07-28) open at once in one
 * process, as many as `maxSessions` allows legacy sessions (each holds a connection and its buffers).
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({ onsession, maxListenStreams: DEFAULT_MAX_LISTEN_STREAMS / 4 });
 * ```
 */
export const DEFAULT_MAX_LISTEN_STREAMS = 10_000;

/**
 * The 503 of a `subscriptions/listen` request past `maxListenStreams`, or undefined when there is room.
 * None is evicted: each open stream is a client's live subscription.
 */
export function refuseListenStream(state: EndpointState, id: RequestId | undefined): Response | undefined {
  const max = state.maxListenStreams;
  if (state.listenStreams.size < max) return undefined;
  const message = `Service Unavailable: all maxListenStreams (${max}) subscriptions/listen streams are open`;
  return errorResponse(503, ErrorCode.InternalError, message, {
    id,
    headers: { 'retry-after': '1' },
    data: { limit: 'maxListenStreams', maxListenStreams: max },
  });
}
