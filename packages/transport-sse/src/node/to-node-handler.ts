import { toNodeHandler as nodeHandler } from '@x/protocol/node';

/**
 * Adapts an SSE handler (or any Web-standard handler) to `node:http`, Express and Fastify: `toNodeHandler`
 * of `@x/protocol/node`, the one Node adapter of every HTTP transport, re-exported here so an application
 * needs no direct dependency on `@x/protocol`.
 *
 * @example
 * ```ts
 * import { toNodeHandler } from '@x/transport-sse/node';
 * const sse = createSseHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * http.createServer(toNodeHandler(sse)).listen(3000, '127.0.0.1');
 * // Express, with or without express.json(): app.all('/sse', toNodeHandler(sse));
 * ```
 */
export const toNodeHandler: typeof nodeHandler = nodeHandler;
