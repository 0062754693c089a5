import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runTransportContract, type TransportPair } from '@x/protocol/testing';
import { expect, it } from 'vitest';
import {
  createStreamableHttpHandler,
  StreamableHttpClientTransport,
  type StreamableHttpServerTransport,
} from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { closeServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

/**
 * A connected legacy session: the handshake (initialize, initialized, GET stream open) is done here with
 * temporary handlers, then both ends go to the kit already started.
 */
async function sessionPair(): Promise<TransportPair> {
  let server: StreamableHttpServerTransport | undefined;
  const handler = createStreamableHttpHandler({
    maxQueuedMessages: 10_000,
    onsession: async (transport) => {
      server = transport;
      transport.onmessage = (message) => {
        if ('method' in message && message.method === 'initialize' && 'id' in message) {
          void transport.send({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              serverInfo: { name: 'contract', version: '0' },
            },
          });
        }
      };
      await transport.start();
    },
  });
  const http = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = new StreamableHttpClientTransport(
    `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
  );
  await client.start();
  const answered = new Promise((resolve) => (client.onmessage = resolve));
  await client.send({
    jsonrpc: '2.0',
    id: 'contract-init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'contract', version: '0' },
    },
  });
  await answered;
  client.setProtocolVersion('2025-11-25');
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await waitFor(
    () => (server as unknown as { hasOpenStream?: boolean } | undefined)?.hasOpenStream === true,
    { what: 'GET stream' },
  );
  client.onmessage = undefined;
  server!.onmessage = undefined;
  return {
    client,
    server: server!,
    started: true,
    dispose: async () => {
      await handler.close();
      await closeServer(http);
    },
  };
}

it('passes the transport contract kit (legacy session over loopback HTTP)', async () => {
  const result = await runTransportContract(sessionPair, {
    messageCount: 300,
    concurrentRequests: 200,
    skip: {
      'close-from-server':
        'HTTP has no server-to-client close signal: a client learns its session ended on the next request (404) and re-initializes, as the spec requires',
    },
  });
  expect(result.passed.length).toBeGreaterThanOrEqual(12);
}, 120_000);
