/// <reference types="node" />
// The build compiles @x/protocol without Node types (`types: []`); only this Node-only subpath loads them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../errors.js';
import type { ConnectionInfo, IncomingHandler, WebHandler } from '../http/http-incoming.js';
import { BadRequestUrlError, NodeIncoming } from './node-incoming.js';
import { sendJsonRpcError } from './send-json-rpc-error.js';
import { writeResponse } from './write-response.js';

/**
 * A `node:http` request listener, also usable as Express/Fastify/Hono-on-Node middleware. A body a
 * framework's parser already read is taken from `req.body` (Express; with Fastify set
 * `request.raw.body = request.body` first). The promise settles once the response is handed over; it
 * never rejects: a fault goes to `next` when given, else becomes a 500.
 *
 * @example
 * ```ts
 * const listener: NodeHandler = toNodeHandler(handler);
 * createServer(listener).listen(3000, '127.0.0.1');
 * // Express, with or without express.json(): app.all('/mcp', listener)
 * ```
 */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>;

/**
 * Adapts a Web-standard handler `(request, info) => Promise<Response>` to `node:http` (and so to
 * Express, Fastify via `reply.hijack()`, or Hono's node server): the one Node adapter of every HTTP
 * transport. It passes the socket addresses as {@link ConnectionInfo} (they decide the DNS-rebinding
 * default and the anonymous rate-limit key), turns a client disconnect into an abort of `request.signal`
 * and a cancel of the response stream, and writes the answer back with backpressure.
 *
 * A handler that is an {@link IncomingHandler} (`createStreamableHttpHandler`, `createSseHandler`) is
 * served without the Web detour: it reads the `IncomingMessage` through `handleIncoming` (a `Request`
 * is built only for a hook that asks for one) and its `LazyResponse` goes straight to the socket. Any
 * other handler gets a `Request` (streamed body, or `req.body` when a framework already parsed it).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { toNodeHandler } from '@x/protocol/node';
 * const handler = createStreamableHttpHandler({ onsession: (t) => server.connect(t) });
 * createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', toNodeHandler(handler));
 * ```
 */
export function toNodeHandler(handler: WebHandler | IncomingHandler): NodeHandler {
  if (isIncomingHandler(handler)) {
    return async (req, res, next) => {
      try {
        await writeResponse(await handler.handleIncoming(new NodeIncoming(req, res)), res);
      } catch (error) {
        failNodeRequest(error, res, next);
      }
    };
  }
  return async (req, res, next) => {
    try {
      const incoming = new NodeIncoming(req, res);
      const response = await handler(incoming.toRequest(), connectionInfo(req));
      await writeResponse(response, res);
    } catch (error) {
      failNodeRequest(error, res, next);
    }
  };
}

function isIncomingHandler(handler: WebHandler | IncomingHandler): handler is IncomingHandler {
  return typeof (handler as Partial<IncomingHandler>).handleIncoming === 'function';
}

/**
 * The socket addresses of a `node:http` request, as a Web-standard handler takes them.
 *
 * @example
 * ```ts
 * const response = await handler(request, connectionInfo(req));
 * ```
 */
export function connectionInfo(req: IncomingMessage): ConnectionInfo {
  return { localAddress: req.socket.localAddress, remoteAddress: req.socket.remoteAddress };
}

/**
 * Ends a `node:http` request whose handling threw: 400 with a JSON-RPC body for a request no URL can be
 * built from (the client's mistake), else `next(error)` when a framework gave one, else 500 (or a cut
 * connection when the head already left).
 *
 * @example
 * ```ts
 * dispatch(incoming).catch((error: unknown) => failNodeRequest(error, res, next));
 * ```
 */
export function failNodeRequest(
  error: unknown,
  res: ServerResponse,
  next: ((error?: unknown) => void) | undefined,
): void {
  if (error instanceof BadRequestUrlError) {
    sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, `Bad Request: ${error.message}`);
    return;
  }
  if (next !== undefined) next(error);
  else if (!res.headersSent) sendJsonRpcError(res, 500, ErrorCode.InternalError, 'Internal server error');
  else res.destroy();
}
