import {
  failNodeRequest,
  NodeIncoming,
  type NodeHandler,
  toNodeHandler as toWebNodeHandler,
} from '@x/protocol/node';
import type { WebHandler } from '@x/protocol/http';
import { NODE_DISPATCH, type NodeDispatch } from '../server/node-dispatch.js';
import { writeDispatched } from './node-response.js';

/**
 * Adapts the Web-standard handler to `node:http` (and so to Express, Fastify via `reply.hijack()`, or
 * Hono's node server): streams the request body in (or takes `req.body` when a body parser already read
 * the stream) and the response out, and turns a client disconnect into an abort of `request.signal` and
 * a cancel of the response stream (which is how a modern request learns it was cancelled). It also
 * reports the socket addresses, which decide the DNS-rebinding default and the anonymous rate-limit key.
 *
 * A handler made by `createStreamableHttpHandler` is served without the Web detour: the adapter reads
 * the `IncomingMessage` and writes the `ServerResponse` itself (a `Request` is built only for an
 * `authenticate` hook), with every check of the Web-standard path. Any other Web handler goes through
 * `toNodeHandler` of `@x/protocol/node`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { toNodeHandler } from '@x/transport-streamable-http/node';
 * const handler = createStreamableHttpHandler({ onsession: (t) => server.connect(t) });
 * createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', toNodeHandler(handler));
 * ```
 */
export function toNodeHandler(handler: WebHandler): NodeHandler {
  const dispatch = (handler as { [NODE_DISPATCH]?: NodeDispatch })[NODE_DISPATCH];
  if (dispatch === undefined) return toWebNodeHandler(handler);
  return async (req, res, next) => {
    try {
      const response = await dispatch(new NodeIncoming(req, res));
      await writeDispatched(response, res);
    } catch (error) {
      failNodeRequest(error, res, next);
    }
  };
}
