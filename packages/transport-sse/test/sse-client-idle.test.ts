import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SseClientTransport } from '../src/index.js';
import type { FetchLike } from '@x/protocol/http';
import { startSseServer, useCleanup } from './helpers.js';
import { startHttpServer, waitFor } from '@x/test-kit';

const addCleanup = useCleanup();
const note = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;

function track(client: SseClientTransport) {
  const seen = { closes: 0, errors: [] as Error[] };
  client.onclose = () => seen.closes++;
  client.onerror = (error) => seen.errors.push(error);
  addCleanup(() => client.close());
  return seen;
}

/** A fetch that counts the keep-alive comments arriving on the GET stream. */
function countingKeepAlives(): { fetch: FetchLike; count: () => number } {
  let count = 0;
  const decoder = new TextDecoder();
  const fetch: FetchLike = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if ((init?.method ?? 'GET') !== 'GET' || response.body === null) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          count += decoder.decode(chunk, { stream: true }).split(': keep-alive').length - 1;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, headers: response.headers });
  };
  return { fetch, count: () => count };
}

describe('SseClientTransport idle timeout', () => {
  it('closes (onerror, then onclose) when the server goes silent without closing the connection', async () => {
    // The endpoint event, then nothing: a host that died, or a NAT that dropped the flow.
    const http = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages?sessionId=1\n\n');
    });
    addCleanup(http.close);
    const client = new SseClientTransport(`${http.url}/sse`, { idleTimeoutMs: 100 });
    const seen = track(client);
    const order: string[] = [];
    client.onerror = (error) => {
      seen.errors.push(error);
      order.push('error');
    };
    client.onclose = () => {
      seen.closes++;
      order.push('close');
    };
    await client.start();
    await waitFor(() => seen.closes === 1, { timeoutMs: 2_000 });
    expect(order).toEqual(['error', 'close']);
    expect(seen.errors[0]).toBeInstanceOf(ConnectionClosedError);
    expect(seen.errors[0]?.message).toMatch(/for 100 ms \(idleTimeoutMs\)/);
    await expect(client.send(note)).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("stays open while SseServer's keep-alive comments arrive, for many times the idle timeout", async () => {
    const harness = await startSseServer(addCleanup, { keepAliveMs: 20 });
    const keepAlives = countingKeepAlives();
    const client = new SseClientTransport(harness.url, { idleTimeoutMs: 250, fetch: keepAlives.fetch });
    const seen = track(client);
    await client.start();
    // 25 comments take ~500 ms: twice the idle timeout, which only the comments keep from firing.
    await waitFor(() => keepAlives.count() >= 25 || seen.closes > 0);
    expect(seen.errors).toEqual([]);
    expect(seen.closes).toBe(0);
    await client.send(note);
  });

  it('leaves a quiet stream alone when disabled (0)', async () => {
    const http = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages?sessionId=1\n\n');
    });
    addCleanup(http.close);
    const disabled = new SseClientTransport(`${http.url}/sse`, { idleTimeoutMs: 0 });
    const watched = new SseClientTransport(`${http.url}/sse`, { idleTimeoutMs: 50 });
    const quiet = track(disabled);
    const timedOut = track(watched);
    await Promise.all([disabled.start(), watched.start()]);
    // The twin with a timeout marks the time: by its close, the disabled one has been idle as long.
    await waitFor(() => timedOut.closes === 1, { timeoutMs: 2_000 });
    expect(quiet.closes).toBe(0);
    expect(quiet.errors).toEqual([]);
  });
});
