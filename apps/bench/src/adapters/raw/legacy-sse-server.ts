import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ServerHandle } from '../types.js';
import { listenLoopback } from './http-listen.js';
import { readJsonBody } from './read-body.js';
import { respond } from './responder.js';

/**
 * Raw legacy HTTP+SSE server: GET opens the stream (first event names the POST endpoint), each POST
 * gets 202 and its reply goes out as a `message` event on the stream.
 */
export function serveRawLegacySse(): Promise<ServerHandle> {
  const streams = new Map<string, ServerResponse>();
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET') {
      const id = randomUUID();
      streams.set(id, response);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
      request.on('close', () => streams.delete(id));
      return;
    }
    const id = new URL(request.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
    const stream = streams.get(id);
    if (stream === undefined) {
      response.writeHead(404).end();
      return;
    }
    const message = await readJsonBody(request);
    response.writeHead(202).end('Accepted');
    const reply = respond(message);
    if (reply !== undefined) stream.write(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
  }

  return listenLoopback(server, () => {
    for (const stream of streams.values()) stream.end();
  });
}
