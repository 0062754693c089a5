import { ErrorCode } from '@x/protocol';
import type { SessionContext } from '@x/protocol/http';
import type { MessageExtraInfo } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SseClientTransport } from '../src/index.js';
import { openRawStream, rawRequest, startSseServer, useCleanup } from './helpers.js';
import { waitFor } from '@x/test-kit';

const addCleanup = useCleanup();
const ping = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/ping' });

async function openSession(options: Parameters<typeof startSseServer>[1] = {}) {
  const harness = await startSseServer(addCleanup, options);
  const stream = await openRawStream({ port: harness.port, path: '/sse' });
  addCleanup(() => stream.destroy());
  const endpoint = await stream.endpoint();
  return { harness, stream, endpoint };
}

function post(port: number, path: string, body: string | string[], headers: Record<string, string> = {}) {
  return rawRequest({
    port,
    method: 'POST',
    path,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('SseServer over HTTP', () => {
  it('opens a stream whose first event is the endpoint, with a random session id, and accepts POSTs with 202', async () => {
    const { harness, stream, endpoint } = await openSession();
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(endpoint).toMatch(/^\/sse\?sessionId=[0-9a-f-]{36}$/);
    expect(harness.sessions[0]?.sessionId).toBe(
      new URL(endpoint, harness.origin).searchParams.get('sessionId'),
    );

    const received: unknown[] = [];
    harness.sessions[0]!.onmessage = (message) => received.push(message);
    const res = await post(harness.port, endpoint, ping, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(202);
    expect(received).toEqual([JSON.parse(ping)]);
  });

  it('announces a configured endpoint path', async () => {
    const { endpoint } = await openSession({ endpoint: '/messages' });
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
  });

  it('answers an unknown session with 404 and a missing one with 400', async () => {
    const { harness } = await openSession();
    const unknown = await post(harness.port, '/sse?sessionId=00000000-0000-0000-0000-000000000000', ping);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: 'Session not found' },
    });
    expect((await post(harness.port, '/sse', ping)).status).toBe(400);
  });

  it('answers malformed JSON with 400 and a JSON-RPC parse error, and a non-message with InvalidRequest', async () => {
    const { harness, endpoint } = await openSession();
    const res = await post(harness.port, endpoint, '{"jsonrpc":');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.ParseError },
    });
    const invalid = await post(harness.port, endpoint, '[1,2]');
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
    // JSON-RPC 2.0 §5: the id is echoed when it can be read (found by apps/fuzz).
    const badParams = await post(
      harness.port,
      endpoint,
      '{"jsonrpc":"2.0","id":"q","method":"ping","params":[]}',
    );
    expect(badParams.status).toBe(400);
    expect(JSON.parse(badParams.body)).toMatchObject({ id: 'q', error: { code: ErrorCode.InvalidRequest } });
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding) and accepts loopback ones', async () => {
    const { harness, endpoint } = await openSession();
    const get = (headers: Record<string, string>) =>
      rawRequest({ port: harness.port, method: 'GET', path: '/nope', headers });
    expect((await get({ host: 'evil.example' })).status).toBe(403);
    expect((await get({ host: `localhost:${harness.port}`, origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await get({ origin: 'null' })).status).toBe(403);
    expect((await post(harness.port, endpoint, ping, { host: 'evil.example:80' })).status).toBe(403);
    expect((await post(harness.port, endpoint, ping, { origin: 'http://localhost:5173' })).status).toBe(202);
  });

  it('accepts configured hosts and origins, and nothing else', async () => {
    const { harness } = await openSession({
      dnsRebindingProtection: {
        allowedHosts: ['127.0.0.1', 'mcp.example'],
        allowedOrigins: ['https://app.example'],
      },
    });
    const stream = await openRawStream({
      port: harness.port,
      path: '/sse',
      headers: { host: 'mcp.example', origin: 'https://app.example' },
    });
    addCleanup(() => stream.destroy());
    expect(stream.status).toBe(200);
    const other = await rawRequest({
      port: harness.port,
      method: 'GET',
      path: '/sse',
      headers: { origin: 'https://mcp.example' },
    });
    expect(other.status).toBe(403);
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const { harness, endpoint } = await openSession({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(2048) } });
    expect((await post(harness.port, endpoint, big)).status).toBe(413);
    // Chunked, so the limit is only found while reading.
    const chunked = await post(harness.port, endpoint, [big.slice(0, 1000), big.slice(1000)], {
      'transfer-encoding': 'chunked',
    });
    expect(chunked.status).toBe(413);
    expect((await post(harness.port, endpoint, ping)).status).toBe(202);
  });

  it('takes the body limit as maxMessageBytes, the deprecated maxBodyBytes still working (the new name wins)', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(2048) } });
    const small = await openSession({ maxMessageBytes: 1024 });
    const refused = await post(small.harness.port, small.endpoint, big);
    expect(refused.status).toBe(413);
    expect(refused.body).toContain('maxMessageBytes');
    const both = await openSession({ maxMessageBytes: 64 * 1024, maxBodyBytes: 1024 });
    expect((await post(both.harness.port, both.endpoint, big)).status).toBe(202);
  });

  it('hands onsession the GET request, authInfo and client address (the shared SessionContext)', async () => {
    const contexts: SessionContext[] = [];
    await openSession({
      authenticate: () => ({ token: 't', clientId: 'client-1', scopes: [] }),
      onsession: async (transport, context) => {
        contexts.push(context);
        await transport.start();
      },
    });
    await waitFor(() => contexts.length === 1);
    expect(contexts[0]?.authInfo?.clientId).toBe('client-1');
    expect(contexts[0]?.clientAddress).toBe('127.0.0.1');
    expect(contexts[0]?.request.method).toBe('GET');
  });

  it('refuses a body that is not declared as JSON with 415', async () => {
    const { harness, endpoint } = await openSession();
    expect((await post(harness.port, endpoint, ping, { 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await post(harness.port, endpoint, ping, { 'content-type': 'application/json; charset=latin1' }))
        .status,
    ).toBe(415);
  });

  it('refuses methods other than GET and POST with 405', async () => {
    const { harness } = await openSession();
    const res = await rawRequest({ port: harness.port, method: 'DELETE', path: '/sse' });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, POST');
  });

  it('drops the session when the client disconnects', async () => {
    const { harness, stream } = await openSession();
    let closed = 0;
    harness.sessions[0]!.onclose = () => closed++;
    expect(harness.sse.sessionCount).toBe(1);
    stream.destroy();
    await waitFor(() => harness.sse.sessionCount === 0);
    expect(closed).toBe(1);
    await expect(harness.sessions[0]!.send({ jsonrpc: '2.0', method: 'late' })).rejects.toThrow(/closed/);
  });

  it('sends keep-alive comments on the configured interval', async () => {
    const { stream } = await openSession({ keepAliveMs: 10 });
    await waitFor(() => stream.text().includes(': keep-alive\n\n'));
  });

  it('passes auth info from the authenticate hook with each message; its Response refuses; sessions stay with their client', async () => {
    const extras: Array<MessageExtraInfo | undefined> = [];
    const harness = await startSseServer(
      addCleanup,
      {
        authenticate: (request) => {
          const token = request.headers.get('authorization')?.replace('Bearer ', '');
          if (token === 'good') return { token, clientId: 'c1', scopes: ['mcp'] };
          if (token === 'other') return { token, clientId: 'c2', scopes: ['mcp'] };
          return new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
        },
      },
      (transport) => {
        transport.onmessage = (_message, extra) => extras.push(extra);
      },
    );
    expect((await rawRequest({ port: harness.port, method: 'GET', path: '/sse' })).status).toBe(401);
    const client = new SseClientTransport(harness.url, { headers: { authorization: 'Bearer good' } });
    addCleanup(() => client.close());
    await client.start();
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(extras[0]?.authInfo).toEqual({ token: 'good', clientId: 'c1', scopes: ['mcp'] });
    expect(extras[0]?.requestInfo?.headers['authorization']).toBe('Bearer good');

    // Another authenticated client that learned the session id may not post into it.
    const path = `${client.endpoint?.pathname}${client.endpoint?.search}`;
    const hijack = await post(harness.port, path, ping, { authorization: 'Bearer other' });
    expect(hijack.status).toBe(403);
    expect(extras).toHaveLength(1);
  });

  it('ends every stream on close() and then answers 503', async () => {
    const harness = await startSseServer(addCleanup);
    const clients = [new SseClientTransport(harness.url), new SseClientTransport(harness.url)];
    let clientCloses = 0;
    for (const client of clients) {
      client.onclose = () => clientCloses++;
      await client.start();
    }
    expect(harness.sse.sessionCount).toBe(2);
    await harness.sse.close();
    expect(harness.sse.sessionCount).toBe(0);
    await waitFor(() => clientCloses === 2);
    expect((await rawRequest({ port: harness.port, method: 'GET', path: '/sse' })).status).toBe(503);
  });
});

// Issue #25, item 6: "an optional endpoint path (404 elsewhere)".
describe('the path option', () => {
  it('serves the stream path and the POST endpoint, and answers 404 with a JSON-RPC body elsewhere', async () => {
    const { harness, endpoint } = await openSession({ path: '/sse', endpoint: '/messages' });
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    expect((await post(harness.port, endpoint, ping)).status).toBe(202);
    for (const [method, path] of [
      ['GET', '/other'],
      ['POST', '/other?sessionId=1'],
    ] as const) {
      const reply = await (method === 'GET'
        ? rawRequest({ port: harness.port, method, path })
        : post(harness.port, path, ping));
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body)).toMatchObject({
        error: { code: ErrorCode.InvalidRequest, message: 'Not Found: the SSE endpoint is /sse' },
      });
    }
  });
});
