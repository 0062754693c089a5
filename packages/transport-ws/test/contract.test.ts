import { runTransportContract } from '@x/protocol/testing';
import { describe, expect, it } from 'vitest';
import { WebSocketClientTransport } from '../src/index.js';
import { type WebSocketServerTransport, listenWebSocket } from '../src/node.js';
import { waitFor } from '@x/test-kit';

describe('transport contract kit over real sockets', () => {
  it('passes every scenario', async () => {
    const result = await runTransportContract(async () => {
      const accepted: WebSocketServerTransport[] = [];
      const listener = await listenWebSocket({
        port: 0,
        keepAliveMs: 0,
        onsession: (transport) => {
          accepted.push(transport);
        },
      });
      // The server end exists only once the client connected, so the pair comes back started.
      const client = new WebSocketClientTransport(listener.url!, { keepAliveMs: 0 });
      await client.start();
      await waitFor(() => accepted.length === 1, { timeoutMs: 5_000, what: 'the server end' });
      const server = accepted[0]!;
      await server.start();
      return { client, server, started: true, dispose: () => listener.close() };
    });
    expect(result.skipped).toEqual([]);
  }, 60_000);
});
