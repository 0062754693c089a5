import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { serveHttp, sessionIdOf } from '../node-http.js';
import type { ServerHandle } from '../types.js';
import { createV2Server } from './definition.js';

/** v2's documented `node:http` pattern (`@modelcontextprotocol/node`): a transport + server per session. */
export function serve(mode: 'json' | 'sse'): Promise<ServerHandle> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  return serveHttp(async (request, response) => {
    const id = sessionIdOf(request);
    const existing = id === undefined ? undefined : sessions.get(id);
    if (existing !== undefined) return existing.handleRequest(request, response);
    if (id !== undefined) {
      response.writeHead(404).end();
      return;
    }
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === 'json',
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createV2Server().connect(transport);
    await transport.handleRequest(request, response);
  });
}
