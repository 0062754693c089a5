import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening HTTP server on 127.0.0.1; disposing it closes every connection and the server. */
export interface HttpServerHandle extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  server: Server;
  /** Same as `[Symbol.asyncDispose]`, for cleanup lists that want a `close()`. */
  close(): Promise<void>;
}

/**
 * Starts a `node:http` server on 127.0.0.1, port 0, with `handler` (if any) as its request listener.
 * Use with `await using`, or call `close()` in an `afterEach`.
 *
 * @example
 * await using http = await startHttpServer((req, res) => res.end('ok'));
 * const response = await fetch(`${http.url}/`);
 */
export async function startHttpServer(
  handler?: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HttpServerHandle> {
  const server = handler ? createServer(handler) : createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closed;
  };
  return { url: `http://127.0.0.1:${port}`, port, server, close, [Symbol.asyncDispose]: close };
}
