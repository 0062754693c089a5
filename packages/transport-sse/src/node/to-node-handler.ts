import { Buffer } from 'node:buffer';
import type { WebHandler } from '@x/protocol/http';
import {
  failNodeRequest,
  NodeIncoming,
  type NodeHandler,
  toNodeHandler as toWebNodeHandler,
  writeWebResponse,
} from '@x/protocol/node';
import { NODE_DISPATCH, type NodeDispatch } from '../server/node-dispatch.js';
import { ACCEPTED } from '../server/sse-reply.js';
import { NodeSseSink } from './node-sse-sink.js';

const ACCEPTED_HEADERS = {
  ...ACCEPTED.headers,
  'content-length': String(Buffer.byteLength(ACCEPTED.body)),
};

/**
 * Adapts an SSE handler (or any Web-standard handler) to `node:http`, Express and Fastify
 * (`reply.raw`). A body a framework's parser already read is taken from `req.body` (Express; with
 * Fastify set `request.raw.body = request.body` first).
 *
 * A handler made by `createSseHandler` is served without the Web detour: the adapter reads the
 * `IncomingMessage` and writes the `ServerResponse` itself (a `Request` is built only for an
 * `authenticate` hook or an `onsession` that reads `context.request`), with every check of the
 * Web-standard path.
 *
 * @example
 * ```ts
 * import { toNodeHandler } from '@x/transport-sse/node';
 * const sse = createSseHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * http.createServer(toNodeHandler(sse)).listen(3000, '127.0.0.1');
 * // Express, with or without express.json(): app.all('/sse', toNodeHandler(sse));
 * ```
 */
export function toNodeHandler(handler: WebHandler): NodeHandler {
  const dispatch = (handler as { [NODE_DISPATCH]?: NodeDispatch })[NODE_DISPATCH];
  if (dispatch === undefined) return toWebNodeHandler(handler);
  return async (req, res, next) => {
    try {
      const reply = await dispatch(new NodeIncoming(req, res), () => new NodeSseSink(res));
      if (reply === ACCEPTED) res.writeHead(202, ACCEPTED_HEADERS).end(ACCEPTED.body);
      else if (reply.kind === 'text') {
        const headers = { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) };
        res.writeHead(reply.status, headers).end(reply.body);
      } else if (reply.kind === 'stream') {
        // CORS (when configured): `writeHead` in `open()` merges headers set here.
        if (reply.headers !== undefined)
          for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
        reply.sink.open();
      } else await writeWebResponse(reply.response, res);
    } catch (error) {
      failNodeRequest(error, res, next);
    }
  };
}
