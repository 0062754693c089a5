import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler as xToNodeHandler } from '@x/transport-streamable-http/node';
import { type McpHttpHandler, xHandlerOf } from '../server/create-mcp-handler.js';

/** What `toNodeHandler` returns: a `(req, res, parsedBody?)` handler for `node:http` and Express. */
export type NodeMcpRequestHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
) => Promise<void>;

/**
 * The 2.x `toNodeHandler` for a handler of this package's `createMcpHandler`: x-mcp's own Node adapter
 * (no Web `Request` is built). Another `{ fetch }` object is refused with a `TypeError`.
 *
 * @example
 * ```ts
 * createServer(toNodeHandler(createMcpHandler(factory))).listen(3000, '127.0.0.1');
 * ```
 */
export function toNodeHandler(handler: McpHttpHandler): NodeMcpRequestHandler {
  const x = xHandlerOf(handler);
  if (x === undefined) {
    throw new TypeError("@x/compat: toNodeHandler takes a handler of this package's createMcpHandler");
  }
  const node = xToNodeHandler(x);
  return async (req, res, parsedBody) => {
    if (parsedBody !== undefined) (req as IncomingMessage & { body?: unknown }).body = parsedBody;
    await node(req, res);
  };
}
