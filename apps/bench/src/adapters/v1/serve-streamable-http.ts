import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { serveHttp, sessionIdOf } from '../node-http.js';
import type { ServerHandle } from '../types.js';
import { createV1Server } from './definition.js';

/** v1's documented pattern: a transport + server per session, looked up by `Mcp-Session-Id`. */
export function serve(mode: 'json' | 'sse'): Promise<ServerHandle> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return serveHttp(async (request, response) => {
    const id = sessionIdOf(request);
    const existing = id === undefined ? undefined : sessions.get(id);
    if (existing !== undefined) return existing.handleRequest(request, response);
    if (id !== undefined) {
      response.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === 'json',
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createV1Server().connect(transport);
    await transport.handleRequest(request, response);
  });
}
