import type { HttpIncoming } from '@x/protocol/http';

/**
 * Key of the handler's internal entry for the `node:http` adapter (`toNodeHandler` of `./node`): it
 * takes an {@link HttpIncoming} instead of a `Request` and may answer with a deferred body (see
 * `deferred-body.ts`). A handler without it (any user `WebHandler`) goes through the Web-standard path.
 */
export const NODE_DISPATCH: unique symbol = Symbol('x-mcp.streamable-http.node-dispatch');

export type NodeDispatch = (request: HttpIncoming) => Promise<Response>;
