import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A `node:http` server bound to `host:port`, answering 404 outside `path`. Resolves once it listens, with
 * the actual port (for `--port 0`).
 */
export async function listenHttp(options: {
  host: string;
  port: number;
  path: string;
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Other paths served (the Protected Resource Metadata of `serve --auth-*`). */
  routes?: ReadonlyMap<string, (req: IncomingMessage, res: ServerResponse) => void> | undefined;
}): Promise<{ server: Server; url: URL }> {
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = options.routes?.get(pathname);
    if (route !== undefined) {
      route(req, res);
      return;
    }
    if (pathname !== options.path) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`Not found; MCP is served at ${options.path}\n`);
      return;
    }
    options.handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return { server, url: new URL(options.path, `http://${host}:${port}`) };
}

/** Closes the server and, so `close()` does not wait on idle keep-alive sockets, every connection. */
export function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
