import { connect } from 'node:net';
import { ErrorCode } from '@x/protocol';
import type { JSONRPCMessage, MessageExtraInfo } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { createSseHandler, SseClientTransport } from '../src/index.js';
import type { SseServerTransport } from '../src/index.js';
import { openRawStream, rawRequest, startSseServer, useCleanup } from './helpers.js';
import { afterTurn, waitFor } from '@x/test-kit';

// Issue #24 "Hardening", the legacy HTTP+SSE parts: sessions bound to their caller, bounded sessions,
// buffers and nesting, the shared Origin policy, clear errors.

const addCleanup = useCleanup();

function post(port: number, path: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest({
    port,
    method: 'POST',
    path,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function openStream(port: number, headers: Record<string, string> = {}) {
  const stream = await openRawStream({ port, path: '/sse', headers });
  addCleanup(() => stream.destroy());
  return stream;
}

function errorOf(body: string): { code: number; message: string } {
  return (JSON.parse(body) as { error: { code: number; message: string } }).error;
}

describe('Origin policy (shared with Streamable HTTP and WebSocket)', () => {
  function webServer() {
    const sse = createSseHandler({ onsession: (transport) => transport.start() });
    addCleanup(() => sse.close());
    return sse;
  }

  it('refuses a rebound browser on a non-loopback address: Host matches, Origin is the attacker (403)', async () => {
    const sse = webServer();
    const rebound = new Request('http://evil.example/sse', {
      headers: { host: 'evil.example', origin: 'http://evil.example' },
    });
    const response = await sse(rebound, { localAddress: '192.168.1.5', remoteAddress: '192.168.1.9' });
    expect(response.status).toBe(403);
    expect(errorOf(await response.text()).message).toMatch(/Invalid Origin header: http:\/\/evil\.example/);
  });

  it('on a non-loopback address serves non-browser clients under its LAN name, browsers from loopback pages only', async () => {
    const sse = webServer();
    const lan = { localAddress: '192.168.1.5', remoteAddress: '192.168.1.9' };
    const plain = await sse(
      new Request('http://192.168.1.5:3000/sse', { headers: { host: '192.168.1.5:3000' } }),
      lan,
    );
    expect(plain.status).toBe(200);
    await plain.body?.cancel();
    const sameOrigin = await sse(
      new Request('http://192.168.1.5:3000/sse', {
        headers: { host: '192.168.1.5:3000', origin: 'http://192.168.1.5:3000' },
      }),
      lan,
    );
    // "Same origin as the request" is what a rebound page has too: not a defence.
    expect(sameOrigin.status).toBe(403);
  });

  it('keeps checking Host on loopback, and takes the shared DnsRebindingOptions object', async () => {
    const harness = await startSseServer(addCleanup, {
      dnsRebindingProtection: { allowedOrigins: ['https://app.example.com'] },
    });
    const foreignHost = await rawRequest({
      port: harness.port,
      method: 'GET',
      path: '/sse',
      headers: { host: 'evil.example' },
    });
    expect(foreignHost.status).toBe(403);
    expect(errorOf(foreignHost.body).message).toMatch(/Invalid Host/);
    const stream = await openStream(harness.port, { origin: 'https://app.example.com' });
    expect(stream.status).toBe(200);
    const refused = await openStream(harness.port, { origin: 'http://localhost:5173' });
    expect(refused.status).toBe(403);
  });
});

describe('session limits', () => {
  it('refuses a new session past maxSessions with 503, Retry-After and a JSON-RPC body naming the option', async () => {
    const harness = await startSseServer(addCleanup, { maxSessions: 2 });
    const first = await openStream(harness.port);
    await openStream(harness.port);
    await waitFor(() => harness.sse.sessionCount === 2);
    const refused = await rawRequest({ port: harness.port, method: 'GET', path: '/sse' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(errorOf(refused.body).message).toMatch(/maxSessions \(2\)/);
    // Nobody was evicted for it; once a client leaves, a new one gets in.
    expect(harness.sse.sessionCount).toBe(2);
    first.destroy();
    await waitFor(() => harness.sse.sessionCount === 1);
    expect((await openStream(harness.port)).status).toBe(200);
  });

  it('limits how fast one caller opens sessions (429, Retry-After, naming sessionRateLimit)', async () => {
    const harness = await startSseServer(addCleanup, { sessionRateLimit: { perSecond: 0.001, burst: 3 } });
    for (let i = 0; i < 3; i++) expect((await openStream(harness.port)).status).toBe(200);
    const refused = await rawRequest({ port: harness.port, method: 'GET', path: '/sse' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(refused.body).message).toMatch(/sessionRateLimit/);
  });

  it('keys the rate limit by the authenticated principal when there is one', async () => {
    const harness = await startSseServer(addCleanup, {
      sessionRateLimit: { perSecond: 0.001, burst: 1 },
      authenticate: (request) => ({
        token: 't',
        clientId: request.headers.get('x-client') ?? 'anon',
        scopes: [],
      }),
    });
    expect((await openStream(harness.port, { 'x-client': 'alice' })).status).toBe(200);
    expect((await openStream(harness.port, { 'x-client': 'bob' })).status).toBe(200);
    const again = await rawRequest({
      port: harness.port,
      method: 'GET',
      path: '/sse',
      headers: { 'x-client': 'alice' },
    });
    expect(again.status).toBe(429);
  });

  it('closes a session idle for sessionIdleTimeoutMs, but never one with a request of its client in flight', async () => {
    const harness = await startSseServer(addCleanup, { sessionIdleTimeoutMs: 150, keepAliveMs: 0 });
    const idle = await openStream(harness.port);
    const busy = await openStream(harness.port);
    await idle.endpoint();
    const busyEndpoint = await busy.endpoint();
    await waitFor(() => harness.sessions.length === 2);
    const busySession = harness.sessions[1] as SseServerTransport;
    const requests: JSONRPCMessage[] = [];
    busySession.onmessage = (message) => requests.push(message);
    const accepted = await post(
      harness.port,
      busyEndpoint,
      JSON.stringify({ jsonrpc: '2.0', id: 'slow', method: 'tools/call' }),
    );
    expect(accepted.status).toBe(202);
    await waitFor(() => harness.sse.sessionCount === 1, { timeoutMs: 10_000 });
    expect(harness.sse.getSession(busySession.sessionId)).toBe(busySession);
    // Still there well past the idle timeout, because its request is unanswered.
    const stillBusy = Date.now() + 600;
    await waitFor(() => Date.now() > stillBusy);
    expect(harness.sse.sessionCount).toBe(1);
    await busySession.send({ jsonrpc: '2.0', id: 'slow', result: { content: [] } });
    await waitFor(() => harness.sse.sessionCount === 0, { timeoutMs: 10_000 });
    expect(busy.text()).toContain('"id":"slow"');
  });
});

describe('sessions are bound to their caller', () => {
  it("refuses a POST with another principal's session id (403), even with a valid credential", async () => {
    const harness = await startSseServer(addCleanup, {
      authenticate: (request) => {
        const who = request.headers.get('authorization');
        if (who === null) return new Response(null, { status: 401 });
        return { token: who, clientId: who.slice('Bearer '.length), scopes: [] };
      },
    });
    const alice = await openStream(harness.port, { authorization: 'Bearer alice' });
    const endpoint = await alice.endpoint();
    const received: JSONRPCMessage[] = [];
    await waitFor(() => harness.sessions.length === 1);
    (harness.sessions[0] as SseServerTransport).onmessage = (message) => received.push(message);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const mallory = await post(harness.port, endpoint, body, { authorization: 'Bearer mallory' });
    expect(mallory.status).toBe(403);
    expect(errorOf(mallory.body).message).toBe('Session belongs to another principal');
    expect((await post(harness.port, endpoint, body, { authorization: 'Bearer alice' })).status).toBe(202);
    await waitFor(() => received.length === 1);
  });
});

describe('a client that does not read its stream', () => {
  it('ends the session once the stream holds maxBufferedBytes unsent, with bounded memory (real socket)', async () => {
    const errors: Error[] = [];
    const harness = await startSseServer(addCleanup, { keepAliveMs: 0 }, (transport) => {
      transport.onerror = (error) => errors.push(error);
    });
    // A raw TCP client that sends the GET and then never reads a byte.
    const socket = connect(harness.port, '127.0.0.1');
    socket.on('error', () => {});
    addCleanup(() => void socket.destroy());
    socket.write(`GET /sse HTTP/1.1\r\nHost: 127.0.0.1:${harness.port}\r\n\r\n`);
    socket.pause();
    await waitFor(() => harness.sessions.length === 1);
    const session = harness.sessions[0] as SseServerTransport;

    const text = 'x'.repeat(1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    let refused = 0;
    // 120 results of 1 MiB each: without a cap all of it would wait in the server for this client.
    for (let i = 0; i < 120; i++) {
      // Not awaited, as the engine does not wait for a send (a congested one waits for the reader).
      session
        .send({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } })
        .catch(() => refused++);
      // Lets the socket move what the kernel takes, as it would between requests.
      await afterTurn();
    }
    const grown = process.memoryUsage().rss - rssBefore;
    await waitFor(() => refused > 0);
    expect(refused).toBeGreaterThan(0);
    expect(harness.sse.sessionCount).toBe(0);
    expect(errors.some((error) => /maxBufferedBytes \(33554432\)/.test(error.message))).toBe(true);
    // 120 MiB were sent at it; the server kept at most the cap plus one message (and garbage).
    expect(grown).toBeLessThan(80 * 1024 * 1024);
  }, 60_000);

  it('bounds the Web-standard entry too: an unread Response body ends its session past maxBufferedBytes', async () => {
    const sessions: SseServerTransport[] = [];
    const errors: Error[] = [];
    const sse = createSseHandler({
      maxBufferedBytes: 4 * 1024 * 1024,
      keepAliveMs: 0,
      onsession: async (transport) => {
        transport.onerror = (error) => errors.push(error);
        sessions.push(transport);
        await transport.start();
      },
    });
    addCleanup(() => sse.close());
    const response = await sse(new Request('http://localhost/sse'));
    expect(response.status).toBe(200);
    const text = 'w'.repeat(1024 * 1024);
    let refused = 0;
    for (let i = 0; i < 10; i++) {
      sessions[0]!.send({ jsonrpc: '2.0', id: i, result: { text } }).catch(() => refused++);
    }
    await waitFor(() => refused > 0);
    expect(sse.sessionCount).toBe(0);
    expect(errors[0]?.message).toMatch(/maxBufferedBytes \(4194304\)/);
  });

  it('still delivers a result over 1 MiB to a client that reads', async () => {
    const harness = await startSseServer(addCleanup, { maxBufferedBytes: 1024 * 1024 });
    const client = new SseClientTransport(harness.url);
    const received: JSONRPCMessage[] = [];
    client.onmessage = (message) => received.push(message);
    addCleanup(() => client.close());
    await client.start();
    await waitFor(() => harness.sessions.length === 1);
    const text = 'y'.repeat(3 * 1024 * 1024);
    await harness.sessions[0]!.send({ jsonrpc: '2.0', id: 1, result: { text } });
    await waitFor(() => received.length === 1, { timeoutMs: 10_000 });
    expect(JSON.stringify(received[0]).length).toBeGreaterThan(3 * 1024 * 1024);
  });
});

describe('a client behind on its stream (issue #42)', () => {
  it('gets held events urgent first once it reads, each request’s events in order', async () => {
    const sessions: SseServerTransport[] = [];
    const sse = createSseHandler({
      keepAliveMs: 0,
      onsession: async (transport) => {
        sessions.push(transport);
        await transport.start();
      },
    });
    addCleanup(() => sse.close());
    const response = await sse(new Request('http://localhost/sse'));
    const session = sessions[0] as SseServerTransport;
    const sends: Promise<void>[] = [];
    // Unread, the stream takes this one and is congested: the rest wait in the session.
    sends.push(session.send({ jsonrpc: '2.0', id: 0, result: { text: 'z'.repeat(100 * 1024) } }));
    for (let n = 1; n <= 200; n++) {
      const params = { progressToken: 't', progress: n };
      sends.push(
        session.send({ jsonrpc: '2.0', method: 'notifications/progress', params }, { relatedRequestId: 1 }),
      );
    }
    sends.push(
      session.send({ jsonrpc: '2.0', id: 1, result: {} }, { relatedRequestId: 1, priority: 'urgent' }),
    );
    sends.push(session.send({ jsonrpc: '2.0', id: 2, result: {} }, { relatedRequestId: 2 }));
    sends.push(session.send({ jsonrpc: '2.0', id: 'ping', result: {} }, { priority: 'urgent' }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const order: string[] = [];
    let text = '';
    while (!order.includes('1')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
        text = text.slice(end + 2);
        if (data === undefined || !data.startsWith('{')) continue;
        const message = JSON.parse(data) as { id?: unknown; params?: { progress: number } };
        order.push(message.id === undefined ? `p${message.params?.progress}` : String(message.id));
      }
    }
    await reader.cancel();
    await Promise.allSettled(sends);
    expect(order.slice(0, 3)).toEqual(['0', 'ping', '2']);
    expect(order.slice(3)).toEqual([...Array.from({ length: 200 }, (_, i) => `p${i + 1}`), '1']);
  });
});

describe('client event size', () => {
  it('ends the session on an event over maxMessageBytes (default 4 MiB), naming the option; 1 MiB passes', async () => {
    const harness = await startSseServer(addCleanup);
    const client = new SseClientTransport(harness.url);
    const errors: Error[] = [];
    const received: JSONRPCMessage[] = [];
    let closed = false;
    client.onerror = (error) => errors.push(error);
    client.onmessage = (message) => received.push(message);
    client.onclose = () => {
      closed = true;
    };
    addCleanup(() => client.close());
    await client.start();
    await waitFor(() => harness.sessions.length === 1);
    const session = harness.sessions[0]!;
    void session.send({ jsonrpc: '2.0', id: 1, result: { text: 'z'.repeat(1024 * 1024) } });
    await waitFor(() => received.length === 1, { timeoutMs: 10_000 });
    void session
      .send({ jsonrpc: '2.0', id: 2, result: { text: 'z'.repeat(5 * 1024 * 1024) } })
      .catch(() => {});
    await waitFor(() => closed, { timeoutMs: 10_000 });
    const what = `An event on the SSE stream from ${harness.url} exceeds maxMessageBytes (4194304); the session is closed`;
    expect(errors.map((error) => error.message)).toEqual([what]);
    expect(client.closeReason?.message).toBe(what);
  });
});

describe('nesting depth', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('refuses a POST body nested deeper than maxNestingDepth with -32700 naming the limit', async () => {
    const harness = await startSseServer(addCleanup);
    const stream = await openStream(harness.port);
    const endpoint = await stream.endpoint();
    const refused = await post(harness.port, endpoint, deep(10_000));
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body)).toMatchObject({
      code: ErrorCode.ParseError,
      message: expect.stringMatching(/maxNestingDepth \(128\)/),
    });
  });

  it('passes the option through on the server and on the client', async () => {
    const harness = await startSseServer(addCleanup, { maxNestingDepth: 4 });
    const stream = await openStream(harness.port);
    const endpoint = await stream.endpoint();
    const params = { a: { b: { c: { d: 1 } } } };
    const refused = await post(
      harness.port,
      endpoint,
      JSON.stringify({ jsonrpc: '2.0', method: 'x', params }),
    );
    expect(errorOf(refused.body).message).toMatch(/maxNestingDepth \(4\)/);

    const client = new SseClientTransport(harness.url, { maxNestingDepth: 3 });
    const errors: Error[] = [];
    const received: JSONRPCMessage[] = [];
    client.onerror = (error) => errors.push(error);
    client.onmessage = (message) => received.push(message);
    addCleanup(() => client.close());
    await client.start();
    await waitFor(() => harness.sessions.length === 2);
    await harness.sessions[1]!.send({ jsonrpc: '2.0', method: 'notifications/message', params });
    await harness.sessions[1]!.send({ jsonrpc: '2.0', method: 'notifications/message' });
    await waitFor(() => received.length === 1);
    expect(errors[0]).toMatchObject({
      code: ErrorCode.ParseError,
      message: expect.stringMatching(/maxNestingDepth \(3\)/),
    });
  });
});

describe('clear errors and own-property lookups', () => {
  it('the client names the server URL and what happened when its session ends (closeReason, onerror, sends)', async () => {
    const harness = await startSseServer(addCleanup);
    const client = new SseClientTransport(harness.url);
    const errors: Error[] = [];
    let closed = false;
    client.onerror = (error) => errors.push(error);
    client.onclose = () => {
      closed = true;
    };
    addCleanup(() => client.close());
    await client.start();
    await waitFor(() => harness.sessions.length === 1);
    await harness.sessions[0]!.close();
    await waitFor(() => closed);
    const what = `The server ended the SSE stream of ${harness.url} (session over)`;
    expect(client.closeReason?.message).toBe(what);
    // A clean end is the server's decision, not a fault: no onerror; a later send says what happened.
    expect(errors).toEqual([]);
    await expect(client.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(what);

    const broken = new SseClientTransport(harness.url);
    const brokenErrors: Error[] = [];
    broken.onerror = (error) => brokenErrors.push(error);
    addCleanup(() => broken.close());
    await broken.start();
    await waitFor(() => harness.sessions.length === 2);
    harness.server.closeAllConnections();
    await waitFor(() => brokenErrors.length === 1);
    expect(brokenErrors[0]?.message).toMatch(
      new RegExp(`^SSE stream from ${harness.url.replace(/[.?]/g, '\\$&')} lost`),
    );
    expect(broken.closeReason).toBe(brokenErrors[0]);
  });

  it('answers an unparsable Host (`Host: [`) with 400 and a JSON-RPC body, not 500 or an empty body', async () => {
    const harness = await startSseServer(addCleanup);
    for (const method of ['GET', 'POST']) {
      const res = await rawRequest({ port: harness.port, method, path: '/sse', headers: { host: '[' } });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json');
      expect(errorOf(res.body)).toMatchObject({
        code: ErrorCode.InvalidRequest,
        message: expect.stringMatching(/Host/),
      });
    }
  });

  it('treats session ids and header names like constructor, toString and __proto__ as plain strings', async () => {
    const harness = await startSseServer(addCleanup);
    const stream = await openStream(harness.port);
    const endpoint = await stream.endpoint();
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const res = await post(harness.port, `/sse?sessionId=${name}`, body);
      expect(res.status).toBe(404);
      expect(errorOf(res.body).message).toBe('Session not found');
    }
    const extras: Array<MessageExtraInfo | undefined> = [];
    harness.sessions[0]!.onmessage = (_message, extra) => extras.push(extra);
    // JSON.parse makes `__proto__` an own property (an object literal would set the prototype).
    const hostile = JSON.parse('{"__proto__":"p","constructor":"c","tostring":"t"}') as Record<
      string,
      string
    >;
    const res = await post(harness.port, endpoint, body, hostile);
    expect(res.status).toBe(202);
    await waitFor(() => extras.length === 1);
    const headers = extras[0]?.requestInfo?.headers as Record<string, string>;
    // (node:http itself drops a `__proto__` header before we see it.)
    expect(Object.hasOwn(headers, 'constructor') && headers.constructor).toBe('c');
    expect(Object.hasOwn(headers, 'tostring') && headers.tostring).toBe('t');
  });
});
