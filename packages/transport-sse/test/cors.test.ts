import { describe, expect, it } from 'vitest';
import { createSseHandler } from '../src/index.js';
import { openRawStream, rawRequest, startSseServer, useCleanup } from './helpers.js';

// The `cors` option: a browser page on another origin can open the event stream and POST to it
// (Fetch standard, "CORS protocol": a POST with `Content-Type: application/json` is preflighted).
const PAGE = 'http://127.0.0.1:5173';
const preflight = {
  origin: PAGE,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type, mcp-protocol-version',
};

describe('legacy SSE handler: cors', () => {
  const addCleanup = useCleanup();

  it('node:http: answers the preflight, and the stream and the POST carry Access-Control-Allow-Origin', async () => {
    const harness = await startSseServer(addCleanup, { cors: { origin: [PAGE] }, keepAliveMs: 0 });
    const answer = await rawRequest({
      port: harness.port,
      method: 'OPTIONS',
      path: '/sse',
      headers: preflight,
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE);
    expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(answer.headers['access-control-allow-headers']).toBe('content-type, mcp-protocol-version');
    expect(answer.headers['vary']).toBe('Origin');

    const stream = await openRawStream({ port: harness.port, path: '/sse', headers: { origin: PAGE } });
    addCleanup(() => stream.destroy());
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(stream.headers['access-control-allow-origin']).toBe(PAGE);
    const endpoint = await stream.endpoint();
    const post = await rawRequest({
      port: harness.port,
      method: 'POST',
      path: endpoint,
      headers: { origin: PAGE, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    expect(post.status).toBe(202);
    expect(post.headers['access-control-allow-origin']).toBe(PAGE);
    expect(post.headers['access-control-expose-headers']).toBe('WWW-Authenticate');
  });

  it('node:http: an origin not listed gets no CORS headers (the browser then refuses to read)', async () => {
    const harness = await startSseServer(addCleanup, {
      cors: { origin: [PAGE] },
      dnsRebindingProtection: false,
    });
    const other = { ...preflight, origin: 'http://127.0.0.1:9999' };
    const answer = await rawRequest({ port: harness.port, method: 'OPTIONS', path: '/sse', headers: other });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('without cors an OPTIONS request is 405, as before', async () => {
    const harness = await startSseServer(addCleanup, {});
    const answer = await rawRequest({
      port: harness.port,
      method: 'OPTIONS',
      path: '/sse',
      headers: preflight,
    });
    expect(answer.status).toBe(405);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('Web-standard handler: preflight 204 with no body, the stream and an authenticate 401 carry the headers', async () => {
    const sse = createSseHandler({
      onsession: (transport) => transport.start(),
      cors: true,
      keepAliveMs: 0,
      authenticate: (request) =>
        request.headers.get('authorization') === null
          ? new Response('no token', { status: 401, headers: { 'www-authenticate': 'Bearer' } })
          : { token: 't', clientId: 'c', scopes: [] },
    });
    addCleanup(() => sse.close());
    const answer = await sse(new Request(`${PAGE}/sse`, { method: 'OPTIONS', headers: preflight }));
    expect(answer.status).toBe(204);
    expect(answer.body).toBeNull();
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');

    const refused = await sse(
      new Request('http://localhost/sse', { headers: { origin: 'http://localhost:1' } }),
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');

    const aborter = new AbortController();
    const stream = await sse(
      new Request('http://localhost/sse', {
        headers: { origin: 'http://localhost:1', authorization: 'Bearer t' },
        signal: aborter.signal,
      }),
    );
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('access-control-allow-origin')).toBe('*');
    await stream.body?.cancel();
    aborter.abort();
  });
});
