import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { serveHttp } from '../node-http.js';
import type { ServerHandle } from '../types.js';
import { createV1Server } from './definition.js';

/** v1's documented legacy pattern: GET /sse opens a transport, POST /messages?sessionId= feeds it. */
export function serve(): Promise<ServerHandle> {
  const sessions = new Map<string, SSEServerTransport>();
  return serveHttp(async (request, response) => {
    if (request.method === 'GET') {
      const transport = new SSEServerTransport('/messages', response);
      sessions.set(transport.sessionId, transport);
      response.on('close', () => sessions.delete(transport.sessionId));
      await createV1Server().connect(transport);
      return;
    }
    const id = new URL(request.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
    const transport = sessions.get(id);
    if (transport === undefined) {
      response.writeHead(404).end();
      return;
    }
    await transport.handlePostMessage(request, response);
  });
}
