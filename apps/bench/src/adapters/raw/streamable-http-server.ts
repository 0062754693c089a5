import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ServerHandle } from '../types.js';
import { readJsonBody } from './read-body.js';
import { respond } from './responder.js';
import { listenLoopback } from './http-listen.js';

interface RawSession {
  id: string;
  createdAt: number;
  /** The session's GET stream, while one is open (W6 holds one per session). */
  stream?: ServerResponse | undefined;
}

/**
 * Raw Streamable-HTTP-shaped server: POST a JSON-RPC message, get the reply as a JSON body or as a
 * one-event SSE body. Keeps a minimal session table so per-session memory has a baseline. A GET opens
 * the session's event stream (held open, nothing sent on it); a 2026-07-28 `subscriptions/listen` POST
 * needs no session and gets an SSE body that stays open after its acknowledgement (W6's two stream kinds).
 */
export function serveRawStreamableHttp(mode: 'json' | 'sse'): Promise<ServerHandle> {
  const sessions = new Map<string, RawSession>();
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionHeader = request.headers['mcp-session-id'];
    if (request.method === 'DELETE') {
      sessions.delete(String(sessionHeader));
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET') {
      const session = sessions.get(String(sessionHeader));
      if (session === undefined) {
        response.writeHead(404).end();
        return;
      }
      session.stream = response;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      request.on('close', () => {
        if (session.stream === response) session.stream = undefined;
      });
      return;
    }
    const message = (await readJsonBody(request)) as { method?: string; id?: number | string };
    if (message.method === 'subscriptions/listen') {
      openListenStream(message, response);
      return;
    }
    const headers: Record<string, string> = {};
    if (message.method === 'initialize') {
      const session = { id: randomUUID(), createdAt: Date.now() };
      sessions.set(session.id, session);
      headers['mcp-session-id'] = session.id;
    } else if (typeof sessionHeader !== 'string' || !sessions.has(sessionHeader)) {
      response.writeHead(404).end();
      return;
    }
    const reply = respond(message);
    if (reply === undefined) {
      response.writeHead(202, headers).end();
    } else if (mode === 'json') {
      headers['content-type'] = 'application/json';
      response.writeHead(200, headers).end(JSON.stringify(reply));
    } else {
      headers['content-type'] = 'text/event-stream';
      response.writeHead(200, headers).end(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
    }
  }

  return listenLoopback(server);
}

/** A `subscriptions/listen` stream: the acknowledgement first (as the spec requires), then nothing. */
function openListenStream(
  request: { id?: number | string; params?: { notifications?: unknown } },
  response: ServerResponse,
): void {
  const acknowledged = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: {
      notifications: request.params?.notifications ?? {},
      _meta: { 'io.modelcontextprotocol/subscriptionId': request.id },
    },
  };
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(`event: message\ndata: ${JSON.stringify(acknowledged)}\n\n`);
}
