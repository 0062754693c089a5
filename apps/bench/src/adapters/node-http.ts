import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback } from './raw/http-listen.js';
import type { ServerHandle } from './types.js';

/** A `node:http` server on a random loopback port whose handler failures end the response with 500. */
export function serveHttp(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  onClose?: () => void,
): Promise<ServerHandle> {
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  return listenLoopback(server, onClose);
}

export function sessionIdOf(request: IncomingMessage): string | undefined {
  const value = request.headers['mcp-session-id'];
  return typeof value === 'string' ? value : undefined;
}
