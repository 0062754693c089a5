import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSseHandler, SseClientTransport } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answersOnly,
  BATCHING,
  CLIENT_BATCH,
  clientBatchCases,
  expectArrayOf,
  handshake,
  LATER,
  pong,
  type RawPeer,
  serverBatchCases,
  TextQueue,
} from './fixtures/batch-helpers.js';
import { createBatchScript } from './fixtures/batch-script.mjs';
import { createE2eServer, Resources } from './fixtures/e2e-helpers.js';

// JSON-RPC batches over the legacy HTTP+SSE transport, which can carry a session that negotiated
// 2025-03-26: a POST body that is an array → 202 and the answers as one array `message` event; elsewhere
// 400 with a -32600 body. Real sockets on 127.0.0.1; shared cases and spec sentences in batch-helpers.ts.

const resources = new Resources();
afterEach(() => resources.closeAll());

async function listen(handler: Parameters<typeof createServer>[1]): Promise<URL> {
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  resources.track({
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(resolve));
    },
  });
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`);
}

/** Reads an SSE body, pushing each event's data (named `endpoint` or `message`) into `events`. */
async function readEvents(body: ReadableStream<Uint8Array>, events: TextQueue): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for await (const chunk of body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end = buffered.indexOf('\n\n');
      while (end !== -1) {
        const data = buffered
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice('data: '.length));
        if (data.length > 0) events.push(data.join('\n'));
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
      }
    }
  } catch {
    // The stream ends when the test cleans up.
  }
}

/** A raw HTTP+SSE client of our McpServer: GET stream + POSTs; `statuses` records each POST's status. */
async function rawSse(statuses: number[] = []): Promise<RawPeer> {
  const server = createE2eServer();
  const sse = createSseHandler({ onsession: (transport) => server.connect(transport), keepAliveMs: 0 });
  resources.track(sse);
  const url = await listen(toNodeHandler(sse));
  const abort = new AbortController();
  resources.track({ close: () => abort.abort() });
  const stream = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
  const events = new TextQueue();
  void readEvents(stream.body as ReadableStream<Uint8Array>, events);
  const endpoint = new URL(await events.next(), url);
  return {
    send: async (text) => {
      const reply = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      statuses.push(reply.status);
      const body = await reply.text();
      // A refused POST is answered in its HTTP response, not on the stream.
      if (reply.status !== 202) events.push(body);
    },
    next: () => events.next(),
  };
}

describe('HTTP+SSE server: JSON-RPC batches', () => {
  serverBatchCases(() => rawSse());

  it('answers an accepted batch POST with 202, a refused one with 400', async () => {
    const statuses: number[] = [];
    const accepted = answersOnly(await rawSse(statuses));
    await handshake(accepted, BATCHING);
    await accepted.send(CLIENT_BATCH);
    expectArrayOf(await accepted.next(), [pong(1), pong(2)]);
    const refused = answersOnly(await rawSse(statuses));
    await handshake(refused, LATER);
    await refused.send(CLIENT_BATCH);
    await refused.next();
    expect(statuses).toEqual([202, 202, 202, 202, 202, 400]);
  });
});

describe('HTTP+SSE client: JSON-RPC batches from the server', () => {
  clientBatchCases(resources, async (client) => {
    const script = createBatchScript();
    let stream: ServerResponse | undefined;
    const url = await listen((req, res) => {
      if (req.method === 'GET') {
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /messages?sessionId=s\n\n');
        return;
      }
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        res.writeHead(202).end();
        for (const out of script.onText(body)) stream?.write(`event: message\ndata: ${out}\n\n`);
      });
    });
    const transport = resources.track(new SseClientTransport(url));
    await client.connect(transport);
    return { transport, received: () => script.received };
  });
});
