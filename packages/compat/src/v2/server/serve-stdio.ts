import type { Transport } from '@x/protocol';
import { StdioServerTransport } from '../../server/compat-stdio-server-transport.js';
import type { McpServerFactory } from './create-mcp-handler.js';
import { xServerOf } from './mcp-server.js';

/** Options of `serveStdio`. */
export interface ServeStdioOptions {
  /** `'serve'` (default). `'reject'` is not provided: it throws `TypeError`. */
  legacy?: 'serve' | 'reject' | undefined;
  /** The transport to serve (default: the process's stdio). */
  transport?: Transport | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

/** The handle `serveStdio` returns. */
export interface StdioServerHandle {
  close(): Promise<void>;
}

/**
 * The 2.x `serveStdio`: serves the factory's server on stdio, both eras (x-mcp answers
 * `server/discover` and `initialize` on one connection).
 *
 * @example
 * ```ts
 * serveStdio(() => {
 *   const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *   server.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
 *   return server;
 * });
 * ```
 */
export function serveStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): StdioServerHandle {
  if (options.legacy === 'reject') {
    throw new TypeError(
      "@x/compat: serveStdio's legacy: 'reject' is not provided (see the @x/compat README)",
    );
  }
  const transport = options.transport ?? new StdioServerTransport();
  const session = Promise.resolve(factory({ era: 'legacy' }))
    .then((server) => {
      const x = xServerOf(server);
      if (options.onerror !== undefined) x.server.onerror = options.onerror;
      return x.connect(transport);
    })
    .catch((error: unknown) => {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    });
  return {
    async close() {
      await (await session)?.close();
      await transport.close();
    },
  };
}
