import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@x/protocol';
import { jsonRpcErrorText } from '@x/protocol/http';
import { NODE_DISPATCH, type NodeDispatch } from './node-dispatch.js';
import { BadRequestUrlError, NodeIncoming } from './node-incoming.js';
import { writeDispatched, writeResponse } from './node-response.js';
import type { HandlerContext } from './options.js';

/**
 * A Web-standard handler, as `createStreamableHttpHandler` returns.
 *
 * @example
 * ```ts
 * // Any `(request) => Promise<Response>` can be mounted on node:http, e.g. one that logs first.
 * const logged: WebHandler = (request, context) => {
 *   console.log(request.method, new URL(request.url).pathname);
 *   return handler(request, context);
 * };
 * const listener = toNodeHandler(logged);
 * ```
 */
export type WebHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

/**
 * A `node:http` request listener, also usable as Express/Fastify/Hono-on-Node middleware.
 *
 * @example
 * ```ts
 * const listener: NodeHandler = toNodeHandler(handler);
 * createServer(listener).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', listener)
 * ```
 */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Adapts the Web-standard handler to `node:http` (and so to Express, Fastify via `reply.hijack()`, or
 * Hono's node server): streams the request body in (or takes `req.body` when a body parser already read
 * the stream) and the response out, and turns a client disconnect
 * into an abort of `request.signal` and a cancel of the response stream (which is how a modern request
 * learns it was cancelled). It also reports the local address, which decides the DNS-rebinding default.
 *
 * A handler made by `createStreamableHttpHandler` is served without the Web detour: the adapter reads
 * the `IncomingMessage` and writes the `ServerResponse` itself (a `Request` is built only for an
 * `authenticate` hook), with every check of the Web-standard path.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const handler = createStreamableHttpHandler({ onsession: (t) => server.connect(t) });
 * createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', toNodeHandler(handler));
 * ```
 */
export function toNodeHandler(handler: WebHandler): NodeHandler {
  const dispatch = (handler as { [NODE_DISPATCH]?: NodeDispatch })[NODE_DISPATCH];
  if (dispatch !== undefined) return nodeHandlerFor(dispatch);
  return (req, res, next) => {
    void (async () => {
      try {
        const incoming = listen(req, res);
        const response = await handler(incoming.toRequest(), contextOf(req));
        await writeResponse(response, res);
      } catch (error) {
        fail(error, res, next);
      }
    })();
  };
}

/** The request view, told when the client goes away before the response is complete. */
function listen(req: IncomingMessage, res: ServerResponse): NodeIncoming {
  const incoming = new NodeIncoming(req);
  // `close` on the response fires both after a normal end and on a dropped connection; only the
  // latter (response not finished) is a disconnect.
  res.on('close', () => {
    if (!res.writableFinished) incoming.disconnected();
  });
  return incoming;
}

function nodeHandlerFor(dispatch: NodeDispatch): NodeHandler {
  return (req, res, next) => {
    let incoming: NodeIncoming;
    try {
      incoming = listen(req, res);
    } catch (error) {
      fail(error, res, next);
      return;
    }
    dispatch(incoming, contextOf(req))
      .then((response) => writeDispatched(response, res))
      .catch((error: unknown) => fail(error, res, next));
  };
}

function contextOf(req: IncomingMessage): HandlerContext {
  return { localAddress: req.socket.localAddress, remoteAddress: req.socket.remoteAddress };
}

function fail(error: unknown, res: ServerResponse, next: ((error?: unknown) => void) | undefined): void {
  if (error instanceof BadRequestUrlError && !res.headersSent) {
    // A Host (or target) no URL can hold is the client's mistake: 400 with a JSON-RPC body, not a 500.
    const body = jsonRpcErrorText(ErrorCode.InvalidRequest, `Bad Request: ${error.message}`);
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (next !== undefined) next(error);
  else if (!res.headersSent) res.writeHead(500).end();
  else res.destroy();
}
