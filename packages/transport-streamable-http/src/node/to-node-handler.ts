import { toNodeHandler as nodeHandler } from '@x/protocol/node';

/**
 * Adapts the Web-standard handler to `node:http`, Express and Fastify: `toNodeHandler` of
 * `@x/protocol/node`, the one Node adapter of every HTTP transport, re-exported here so an application
 * needs no direct dependency on `@x/protocol`.
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
export const toNodeHandler: typeof nodeHandler = nodeHandler;
