import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@x/protocol';
import { startHttpServer, waitFor } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/index.js';

// Issue 28 §3: the silence detector of the Streamable HTTP client's long-lived streams. A raw
// node:http server plays the peer so a stream can be stalled (headers sent, then nothing, socket open)
// or cut (its socket destroyed) at will.

interface Stream {
  request: IncomingMessage;
  response: ServerResponse;
}

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const resource of open.splice(0).reverse()) await resource.close();
});

async function body(request: IncomingMessage): Promise<JSONRPCMessage> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as JSONRPCMessage;
}

/** A legacy server: `initialize` (JSON), `notifications/initialized` (202), GET streams kept in `gets`. */
async function legacyPeer(onGet: (stream: Stream, index: number) => void) {
  const gets: Stream[] = [];
  const server = await startHttpServer(async (request, response) => {
    if (request.method === 'GET') {
      const stream = { request, response };
      gets.push(stream);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      response.flushHeaders();
      onGet(stream, gets.length - 1);
      return;
    }
    if (request.method === 'DELETE') return void response.writeHead(200).end();
    const message = await body(request);
    if ('id' in message && 'method' in message) {
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 'raw', version: '1' },
          },
        }),
      );
    } else {
      response.writeHead(202).end();
    }
  });
  open.push(server);
  return { server, gets };
}

async function connect(url: string, options: ConstructorParameters<typeof StreamableHttpClientTransport>[1]) {
  const transport = new StreamableHttpClientTransport(`${url}/mcp`, {
    reconnect: { initialDelayMs: 10 },
    ...options,
  });
  const errors: Error[] = [];
  const received: JSONRPCMessage[] = [];
  transport.onerror = (error) => errors.push(error);
  transport.onmessage = (message) => received.push(message);
  open.push(transport);
  await transport.start();
  await transport.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { transport, errors, received };
}

describe('Streamable HTTP client: silence on long-lived streams', () => {
  it('a stalled GET stream is aborted after idleTimeoutMs and re-opened, resuming from its last event', async () => {
    const { server, gets } = await legacyPeer(({ response }, index) => {
      // The first stream sends one event and stalls with its socket open (a proxy that lost it).
      if (index === 0)
        response.write('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n');
    });
    const { errors, received } = await connect(server.url, { idleTimeoutMs: 150 });
    await waitFor(() => gets.length >= 2, { what: 'the GET stream re-opened' });
    expect(received.filter((message) => 'method' in message)).toMatchObject([
      { method: 'notifications/tools/list_changed' },
    ]);
    expect(gets[1]?.request.headers['last-event-id']).toBe('e1');
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/the GET stream was silent for idleTimeoutMs \(150 ms\)/),
    ]);
    // The stalled stream's socket was given up by the client.
    await waitFor(() => gets[0]?.request.socket.destroyed === true, { what: 'the stalled socket closed' });
  });

  it("keep-alive comments count as bytes: a quiet stream with the server's comments stays open", async () => {
    let comments = 0;
    const { server, gets } = await legacyPeer(({ response }) => {
      const timer = setInterval(() => {
        comments++;
        response.write(':\n\n');
      }, 30);
      response.on('close', () => clearInterval(timer));
    });
    const { errors } = await connect(server.url, { idleTimeoutMs: 150 });
    // Twenty comments span four idle timeouts: silence would have cut the stream several times.
    await waitFor(() => comments >= 20, { what: 'twenty keep-alive comments' });
    expect(gets).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('a GET stream whose socket is closed is re-opened (partition by closing the socket)', async () => {
    const { server, gets } = await legacyPeer(({ request }, index) => {
      if (index === 0) request.socket.destroy();
    });
    await connect(server.url, {});
    await waitFor(() => gets.length >= 2, { what: 'the GET stream re-opened' });
  });

  it('a stalled 2026-07-28 subscriptions/listen stream fails its request with an error naming idleTimeoutMs', async () => {
    const server = await startHttpServer(async (request, response) => {
      const message = await body(request);
      if (!('id' in message)) return void response.writeHead(202).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `data: ${JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': message.id } },
        })}\n\n`,
      ); // …and then nothing, socket open
    });
    open.push(server);
    const transport = new StreamableHttpClientTransport(`${server.url}/mcp`, { idleTimeoutMs: 150 });
    open.push(transport);
    const received: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (message) => received.push(message);
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    await transport.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'subscriptions/listen',
      params: {
        filter: { toolsListChanged: true },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    await waitFor(() => received.some((message) => 'error' in message), {
      what: 'the listen request failed',
    });
    expect(received.at(-1)).toMatchObject({
      id: 7,
      error: {
        code: -32000,
        message: expect.stringMatching(
          /subscriptions\/listen stream was silent for idleTimeoutMs \(150 ms\)/,
        ),
      },
    });
    expect(errors.some((error) => /idleTimeoutMs/.test(error.message))).toBe(true);
  });
});
