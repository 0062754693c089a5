import type { HandlerContext } from './options.js';
import type { HttpIncoming } from './http-incoming.js';

/**
 * Key of the handler's internal entry for the `node:http` adapter: it takes an {@link HttpIncoming}
 * instead of a `Request` and may answer with a deferred body (see `deferred-body.ts`). A handler
 * without it (any user `WebHandler`) goes through the Web-standard path.
 */
export const NODE_DISPATCH: unique symbol = Symbol('x-mcp.streamable-http.node-dispatch');

export type NodeDispatch = (request: HttpIncoming, context?: HandlerContext) => Promise<Response>;
