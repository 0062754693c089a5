import { describe, expect, it } from 'vitest';
import type { WebHandler } from '../src/index.js';
import { toNodeHandler } from '../src/node/index.js';
import { openRawStream, rawRequest, useCleanup } from './helpers.js';
import { startHttpServer, waitFor } from '@x/test-kit';

const addCleanup = useCleanup();

async function serve(handler: WebHandler) {
  const listener = toNodeHandler(handler);
  const http = await startHttpServer((req, res) => void listener(req, res));
  addCleanup(() => http.close());
  return http;
}

describe('toNodeHandler', () => {
  it('hands the handler the same body whether it was declared small, chunked or large', async () => {
    const bodies: string[] = [];
    const http = await serve(async (request) => {
      bodies.push(await request.text());
      return new Response('ok', { status: 200 });
    });
    const small = JSON.stringify({ jsonrpc: '2.0', method: 'a', params: { text: 'é'.repeat(10) } });
    const large = JSON.stringify({ jsonrpc: '2.0', method: 'b', params: { pad: 'x'.repeat(100_000) } });
    for (const body of [small, [small.slice(0, 7), small.slice(7)], large]) {
      const chunked = Array.isArray(body);
      const reply = await rawRequest({
        port: http.port,
        method: 'POST',
        path: '/',
        body,
        headers: chunked ? { 'transfer-encoding': 'chunked' } : {},
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('ok');
    }
    expect(bodies).toEqual([small, small, large]);
  });

  it('aborts request.signal when the client goes away, not after a response went out in full', async () => {
    const signals: AbortSignal[] = [];
    const http = await serve(async (request) => {
      signals.push(request.signal);
      if (request.method === 'POST') return new Response('done', { status: 200 });
      // A stream that never ends, like an SSE session.
      return new Response(
        new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(': hi\n\n')) }),
        {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        },
      );
    });
    const reply = await rawRequest({ port: http.port, method: 'POST', path: '/', body: '{}' });
    expect(reply.body).toBe('done');
    const stream = await openRawStream({ port: http.port, path: '/' });
    await waitFor(() => signals.length === 2);
    stream.destroy();
    await waitFor(() => signals[1]?.aborted === true);
    expect(signals[0]?.aborted).toBe(false);
  });
});
