import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, type JSONRPCMessage, McpError } from '@x/protocol';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import { BATCHING, LATER, pong } from './fixtures/batch-helpers.js';
import { SERVER_BATCH } from './fixtures/batch-script.mjs';
import { e2eClient, Resources, rejectionOf, tapReceived } from './fixtures/e2e-helpers.js';

// The Streamable HTTP client and 2025-03-26 batches: "The SSE stream SHOULD eventually include one
// JSON-RPC response per each JSON-RPC request sent in the POST body. These responses MAY be batched",
// and the server "MAY send JSON-RPC requests and notifications before sending a JSON-RPC response.
// These messages SHOULD relate to the originating client request" (2025-03-26 transports). The client
// MUST support receiving batches (basic); on later versions a batch is refused and not delivered.
// A scripted server on 127.0.0.1 writes the exact bytes.

const resources = new Resources();
afterEach(() => resources.closeAll());

type Reply = 'sse' | 'json' | 'single';

/** A scripted Streamable HTTP server: answers each client `ping` with a batch, as SSE or JSON. */
async function scriptedServer(version: string, reply: () => Reply) {
  const posts: string[] = [];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'GET' ? 405 : 200).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      posts.push(body);
      const message = JSON.parse(body) as { id?: string | number; method?: string };
      if (message.method === 'initialize') {
        const result = {
          protocolVersion: version,
          capabilities: { logging: {} },
          serverInfo: { name: 's', version: '1' },
        };
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        return;
      }
      if (message.method !== 'ping' || message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (reply() === 'single') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(pong(message.id));
        return;
      }
      const batch = JSON.stringify([...SERVER_BATCH, { jsonrpc: '2.0', id: message.id, result: {} }]);
      if (reply() === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(batch);
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`event: message\ndata: ${batch}\n\n`);
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  resources.track({
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(resolve));
    },
  });
  return { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), posts };
}

async function connect(version: string, reply: () => Reply) {
  const server = await scriptedServer(version, reply);
  const client = resources.track(e2eClient({ protocolVersion: version as typeof BATCHING }));
  const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
  const errors: Error[] = [];
  await client.connect(transport);
  const onerror = transport.onerror;
  transport.onerror = (error) => {
    errors.push(error);
    onerror?.(error);
  };
  return { client, transport, posts: server.posts, errors, delivered: tapReceived(transport) };
}

const kinds = (messages: readonly JSONRPCMessage[]) =>
  messages.map((message) => ('method' in message ? message.method : `response ${String(message.id)}`));

describe('Streamable HTTP client: JSON-RPC batches from the server', () => {
  it.each<Reply>(['sse', 'json'])(
    '2025-03-26: delivers each message of a batch in a %s reply',
    async (mode) => {
      const { client, posts, delivered } = await connect(BATCHING, () => mode);
      await client.ping();
      expect(kinds(delivered)).toEqual([
        'ping',
        'notifications/message',
        'ping',
        expect.stringMatching(/^response /),
      ]);
      // The answers to the server's requests go back as POSTs of their own (a batch MAY be sent, need not).
      await expect.poll(() => posts.filter((body) => body.includes('"s'))).toHaveLength(2);
      expect(posts.filter((body) => body.includes('"s')).sort()).toEqual([pong('s1'), pong('s2')]);
    },
  );

  it('2025-06-18: a batch is refused (-32600, not delivered) and the session keeps working', async () => {
    let mode: Reply = 'json';
    const { client, delivered, errors } = await connect(LATER, () => mode);
    const refused = await rejectionOf(client.ping({ timeout: 5_000 }));
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidRequest);
    mode = 'sse';
    // The SSE stream ends without a deliverable response: the request fails at once (-32000).
    await rejectionOf(client.ping());
    mode = 'single';
    await client.ping();
    expect(errors.some((error) => error instanceof McpError && error.code === ErrorCode.InvalidRequest)).toBe(
      true,
    );
    expect(delivered.some((message) => 'method' in message)).toBe(false);
  });
});
