import { isJSONRPCRequest } from '@x/protocol';
import type { JSONRPCMessage } from '@x/protocol';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSseHandler, SseClientTransport } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { useCleanup } from './helpers.js';
import { startHttpServer, waitFor } from '@x/test-kit';

// After `close()` no socket of the client may stay open: a server's graceful `close()` waits for every
// connection that is not idle, and Node never counts a connection idle before it carried a request.
// (undici 7.30 on its global dispatcher opened such a connection after the aborted GET of the event
// stream: Fastify's `app.close()` then waited for its 60 s headers timeout.)

const addCleanup = useCleanup();

/**
 * An SseHandler behind node:http that counts the sockets open on the server side. With `holdPosts`,
 * POSTs are parked unanswered (a message in flight when the client closes).
 */
async function countingServer(options: { holdPosts?: boolean } = {}) {
  const sse = createSseHandler({
    onsession: async (transport) => {
      transport.onmessage = (message) => {
        if (isJSONRPCRequest(message)) {
          transport.send({ jsonrpc: '2.0', id: message.id, result: {} }).catch(() => {});
        }
      };
      await transport.start();
    },
  });
  const handler = toNodeHandler(sse);
  const heldPosts: IncomingMessage[] = [];
  const http = await startHttpServer((req: IncomingMessage, res: ServerResponse) => {
    if (options.holdPosts === true && req.method === 'POST') {
      heldPosts.push(req);
      return;
    }
    void handler(req, res);
  });
  // Keep-alive for a minute (undici keeps an idle socket until shortly before the server's hint runs
  // out): a socket the client leaves behind then outlives every wait below.
  http.server.keepAliveTimeout = 60_000;
  const open = new Set<Socket>();
  http.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  addCleanup(async () => {
    await sse.close();
    await http.close();
  });
  return { url: `${http.url}/sse`, server: http.server, open, heldPosts };
}

/** Resolves when `server.close()` has finished: every connection of the server has ended by itself. */
function serverClosed(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

async function connect(url: string) {
  const client = new SseClientTransport(url);
  const inbox: JSONRPCMessage[] = [];
  client.onmessage = (message) => inbox.push(message);
  addCleanup(() => client.close());
  await client.start();
  return { client, inbox };
}

describe('SseClientTransport sockets', () => {
  it('leaves no socket open after close(), so the server closes gracefully', async () => {
    const { url, server, open } = await countingServer();
    const { client, inbox } = await connect(url);
    // Several POSTs at once, as a client does (a request and a notification): the pool may open a
    // connection for one that another connection then carries.
    await Promise.all([
      client.send({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      client.send({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      client.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ]);
    await waitFor(() => inbox.length === 2, { what: 'the answers on the stream' });
    expect(open.size).toBeGreaterThan(0);

    await client.close();
    await waitFor(() => open.size === 0, { timeoutMs: 10_000, what: "the client's sockets to close" });
    // Graceful: no closeAllConnections, nothing left for close() to wait on.
    await serverClosed(server);
  });

  it('leaves no socket open after close() with a POST in flight, and the send rejects', async () => {
    const { url, server, open, heldPosts } = await countingServer({ holdPosts: true });
    const { client } = await connect(url);
    const sent = client.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    sent.catch(() => {});
    await waitFor(() => heldPosts.length === 1, { what: 'the POST at the server' });

    await client.close();
    await expect(sent).rejects.toThrow('Transport closed');
    await waitFor(() => open.size === 0, { timeoutMs: 10_000, what: "the client's sockets to close" });
    await serverClosed(server);
  });

  it('keeps the sockets of another open transport when one closes', async () => {
    const { url, open } = await countingServer();
    const first = await connect(url);
    const second = await connect(url);
    await first.client.close();
    await second.client.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await waitFor(() => second.inbox.length === 1, { what: 'the answer to the transport still open' });
    await second.client.close();
    await waitFor(() => open.size === 0, { timeoutMs: 10_000, what: "the clients' sockets to close" });
  });
});
