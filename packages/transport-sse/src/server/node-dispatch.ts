import type { HttpIncoming } from '@x/protocol/http';
import type { SseReply } from './sse-reply.js';
import type { SseSink } from './sse-sink.js';

/**
 * Key of the SSE handler's internal entry for the `node:http` adapter (`toNodeHandler` of `./node`): it
 * takes an {@link HttpIncoming} instead of a `Request`, streams into a sink the adapter supplies, and
 * answers with an {@link SseReply} instead of a `Response`. A handler without it (any user
 * `WebHandler`) goes through the Web-standard path.
 */
export const NODE_DISPATCH: unique symbol = Symbol('x-mcp.transport-sse.node-dispatch');

export type NodeDispatch = <S extends SseSink>(
  incoming: HttpIncoming,
  openSink: () => S,
) => Promise<SseReply<S>>;
