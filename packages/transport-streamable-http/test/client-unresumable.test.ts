import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../src/index.js';
import { closeServer, miniClient, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

// A legacy POST stream that breaks before its response and cannot be resumed must fail its request at
// once (a -32000 error response), not leave it pending until the caller's timeout.

const PROGRESS =
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}';

/** Resolves with the answer, or fails when it is still pending after `timeoutMs` (no fixed sleep). */
async function answerWithin(call: Promise<JSONRPCMessage>, timeoutMs = 2_000): Promise<JSONRPCMessage> {
  let answer: JSONRPCMessage | undefined;
  void call.then((message) => (answer = message));
  await waitFor(() => answer !== undefined, { what: 'the pending request to be answered', timeoutMs });
  return answer!;
}

/** A node:http server on 127.0.0.1 that plays a broken legacy server. */
async function fakeServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    [Symbol.asyncDispose]: () => closeServer(server),
  };
}

describe('legacy POST streams that cannot be resumed', () => {
  it('fails the request when the network drops a stream that carried no event id (no event store)', async () => {
    let callResponse: ServerResponse | undefined;
    await using server = await startServer({
      onRequest: (req, res) => {
        if (req.method === 'POST') callResponse = res;
      },
      handlers: {
        initialize: () => ({
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
        long: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 'n', progress: 1 });
          return new Promise(() => {}); // never answers: only the client's own failure can settle the call
        },
      },
    });
    const errors: Error[] = [];
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
    const client = miniClient(transport);
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    await client.initialize();
    const call = client.request('long');
    await waitFor(() => client.received.some((m) => 'method' in m), { what: 'progress 1' });
    callResponse!.socket!.destroy();
    const answer = await answerWithin(call);
    expect(answer).toMatchObject({
      id: 2,
      error: { code: -32000, message: expect.stringMatching(/no event id/) },
    });
    expect(errors.some((e) => e.message.includes('SSE stream disconnected'))).toBe(true);
    await transport.close();
  });

  it('fails the request when a stream without event ids ends cleanly before the response', async () => {
    await using server = await fakeServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${PROGRESS}\n\n`);
    });
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
    const client = miniClient(transport);
    await transport.start();
    const answer = await answerWithin(client.request('long'));
    expect(answer).toMatchObject({ id: 1, error: { code: -32000 } });
    await transport.close();
  });

  it.each([
    [400, /Resuming the response stream failed with HTTP 400/],
    [404, /Session not found while resuming/],
    [503, /Gave up resuming the response stream after 2 attempts/],
  ])('fails the request when the resume GET answers %i', async (status, reason) => {
    let gets = 0;
    await using server = await fakeServer((req, res) => {
      if (req.method === 'POST') {
        // An event id, then the end without a response: the client resumes with Last-Event-ID.
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: e1\ndata: ${PROGRESS}\n\n`);
      } else if (req.method === 'GET') {
        gets++;
        expect(req.headers['last-event-id']).toBe('e1');
        res.writeHead(status).end();
      } else {
        res.writeHead(200).end();
      }
    });
    const errors: Error[] = [];
    const transport = new StreamableHttpClientTransport(server.url, {
      sessionId: 'session-1', // a 404 only means "session gone" when there is one
      standaloneStream: false,
      reconnect: { initialDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 },
    });
    transport.onerror = (error) => errors.push(error);
    const client = miniClient(transport);
    await transport.start();
    const answer = await answerWithin(client.request('long'));
    expect(answer).toMatchObject({ id: 1, error: { code: -32000, message: expect.stringMatching(reason) } });
    expect(gets).toBe(status === 503 ? 2 : 1);
    expect(errors.length).toBeGreaterThan(0);
    await transport.close();
  });
});
