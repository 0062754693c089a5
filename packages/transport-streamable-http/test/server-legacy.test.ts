import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@x/protocol/http';
import {
  attachResponder,
  initializeRequest,
  openSession,
  POST_HEADERS,
  parseSse,
  raw,
  sseMessages,
  startServer,
} from './helpers.js';
import { waitFor } from '@x/test-kit';

const V = '2025-11-25';

function sessionHeaders(sessionId: string, version = V): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
}

describe('legacy sessions', () => {
  it('initialize mints a visible-ASCII session id and answers on an SSE stream', async () => {
    await using server = await startServer();
    const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.headers['x-accel-buffering']).toBe('no');
    expect(reply.headers['mcp-session-id']).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(sseMessages(reply.text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: expect.objectContaining({ protocolVersion: V }) },
    ]);
    expect(server.handler.sessionCount).toBe(1);
  });

  it('answers one JSON object when enableJsonResponse is set', async () => {
    await using server = await startServer({ enableJsonResponse: true });
    const sessionId = await openSession(server.url);
    const reply = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 7, method: 'echo', params: { a: 1 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toEqual({ jsonrpc: '2.0', id: 7, result: { echoed: { a: 1 } } });
  });

  it('rejects requests without a session (400) and with an unknown one (404)', async () => {
    await using server = await startServer();
    const missing = await raw(server.url, {
      headers: POST_HEADERS,
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const unknown = await raw(server.url, {
      headers: sessionHeaders('no-such-session'),
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(unknown.status).toBe(404);
  });

  it('accepts notifications and responses with 202 and no body', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const reply = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    });
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('checks MCP-Protocol-Version: unsupported → 400, missing → 2025-03-26 assumed', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const bad = await raw(server.url, {
      headers: sessionHeaders(sessionId, '1999-01-01'),
      body: { jsonrpc: '2.0', id: 3, method: 'ping' },
    });
    expect(bad.status).toBe(400);
    const missing = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId },
      body: { jsonrpc: '2.0', id: 4, method: 'ping' },
    });
    expect(missing.status).toBe(200);
    expect(sseMessages(missing.text)).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
  });

  it('DELETE ends the session: later requests get 404 and the transport closes', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    let closed = false;
    server.transports[0]!.onclose = () => {
      closed = true;
    };
    const del = await raw(server.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(del.status).toBe(200);
    expect(closed).toBe(true);
    const after = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 5, method: 'ping' },
    });
    expect(after.status).toBe(404);
    expect(server.handler.sessionCount).toBe(0);
  });

  it('evicts the least recently used session beyond maxSessions (404 afterwards)', async () => {
    await using server = await startServer({ maxSessions: 2 });
    const a = await openSession(server.url);
    const b = await openSession(server.url);
    await raw(server.url, { headers: sessionHeaders(a), body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    const c = await openSession(server.url);
    expect(server.handler.sessionCount).toBe(2);
    const ping = (id: string) =>
      raw(server.url, { headers: sessionHeaders(id), body: { jsonrpc: '2.0', id: 2, method: 'ping' } });
    expect((await ping(b)).status).toBe(404);
    expect((await ping(a)).status).toBe(200);
    expect((await ping(c)).status).toBe(200);
  });

  it('expires idle sessions: their transports close and later requests get 404', async () => {
    // Long enough that the handshake (two POSTs) and the onclose hook below land before expiry on a loaded
    // machine (40 ms expired the session mid-handshake at load average 40).
    await using server = await startServer({ sessionIdleTimeoutMs: 1_000 });
    const sessionId = await openSession(server.url);
    let closed = false;
    server.transports[0]!.onclose = () => {
      closed = true;
    };
    await waitFor(() => server.handler.sessionCount === 0 && closed, { what: 'the idle session to expire' });
    const gone = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 3, method: 'ping' },
    });
    expect(gone.status).toBe(404);
  });

  it('refuses a second initialize in a live session (400)', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const again = await raw(server.url, { headers: sessionHeaders(sessionId), body: initializeRequest(9) });
    expect(again.status).toBe(400);
  });
});

describe('legacy streams and routing', () => {
  it('streams related notifications before the response on the POST stream, then ends it', async () => {
    await using server = await startServer({
      handlers: {
        work: async (_params, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 1 });
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 2 });
          return { done: true };
        },
      },
    });
    const sessionId = await openSession(server.url);
    const reply = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 10, method: 'work' },
    });
    expect(sseMessages(reply.text).map((m) => ('method' in m ? m.method : m.id))).toEqual([
      'notifications/progress',
      'notifications/progress',
      10,
    ]);
  });

  it('serves one GET stream per session (409 for a second) with unrelated messages, queued while closed', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const transport = server.transports[0]!;
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const controller = new AbortController();
    const response = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': V },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const second = await raw(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': V },
    });
    expect(second.status).toBe(409);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (sseMessages(text).length < 2) text += (await reader.read()).value ?? '';
    expect(sseMessages(text).map((m) => ('method' in m ? m.method : ''))).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/list_changed',
    ]);
    controller.abort();
  });

  it('GET needs Accept: text/event-stream (406)', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const reply = await raw(server.url, {
      headers: { accept: 'application/json', 'mcp-session-id': sessionId },
    });
    expect(reply.status).toBe(406);
  });

  it('routes the answer to a server→client request that arrives on a different POST', async () => {
    await using server = await startServer({
      handlers: {
        ask: async (_params, ctx) => {
          const answer = await ctx.request('elicitation/create', { message: 'name?' });
          return { got: 'result' in answer ? answer.result : null };
        },
      },
    });
    const sessionId = await openSession(server.url);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'ask' }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (sseMessages(text).length < 1) text += (await reader.read()).value ?? '';
    const [request] = sseMessages(text);
    expect(request).toMatchObject({ method: 'elicitation/create' });
    const answer = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: {
        jsonrpc: '2.0',
        id: (request as { id: string }).id,
        result: { action: 'accept', content: { n: 'x' } },
      },
    });
    expect(answer.status).toBe(202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(sseMessages(text)[1]).toEqual({
      jsonrpc: '2.0',
      id: 20,
      result: { got: { action: 'accept', content: { n: 'x' } } },
    });
  });
});

describe('onsession context', () => {
  it('hands onsession the request, authInfo and client address, as SSE and WebSocket do', async () => {
    const contexts: SessionContext[] = [];
    await using server = await startServer({
      authenticate: () => ({ token: 't', clientId: 'client-1', scopes: [] }),
      onsession: async (transport, context) => {
        contexts.push(context);
        attachResponder(transport);
        await transport.start();
      },
    });
    await openSession(server.url, V);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.authInfo?.clientId).toBe('client-1');
    expect(contexts[0]?.clientAddress).toBe('127.0.0.1');
    expect(contexts[0]?.request.method).toBe('POST');
    expect(new URL(contexts[0]?.request.url ?? '').pathname).toBe('/mcp');
  });
});

describe('2025-03-26 batches', () => {
  it('splits a batch, answers every request (JSON array in JSON mode)', async () => {
    await using server = await startServer({ enableJsonResponse: true });
    const sessionId = await openSession(server.url, '2025-03-26');
    const reply = await raw(server.url, {
      headers: sessionHeaders(sessionId, '2025-03-26'),
      body: [
        { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 2, method: 'echo', params: { n: 2 } },
      ],
    });
    expect(reply.status).toBe(200);
    const body = reply.json() as Array<{ id: number }>;
    expect(body.map((m) => m.id).sort()).toEqual([1, 2]);
  });

  it('streams each batched response on one SSE stream', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url, '2025-03-26');
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId },
      body: [
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(
      sseMessages(reply.text)
        .map((m) => ('id' in m ? m.id : ''))
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('answers an invalid element with its own error next to the other responses (JSON and SSE)', async () => {
    // JSON-RPC 2.0 batch: an invalid element gets {"code": -32600} in the response array, the valid
    // requests their results; "should respond with an Array containing the corresponding Response objects".
    const body = [
      { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
      { jsonrpc: '1.0', id: 2, method: 'echo' },
      { foo: 'boo' },
    ];
    await using json = await startServer({ enableJsonResponse: true });
    const jsonSession = await openSession(json.url, '2025-03-26');
    const reply = await raw(json.url, { headers: sessionHeaders(jsonSession, '2025-03-26'), body });
    expect(reply.status).toBe(200);
    const answers = reply.json() as Array<{ id: number | null; result?: unknown; error?: { code: number } }>;
    expect(answers).toHaveLength(3);
    expect(answers.find((a) => a.id === 1)?.result).toBeDefined();
    expect(answers.find((a) => a.id === 2)?.error?.code).toBe(-32600);
    expect(answers.find((a) => a.id === null)?.error?.code).toBe(-32600);

    await using sse = await startServer();
    const sseSession = await openSession(sse.url, '2025-03-26');
    const streamed = await raw(sse.url, { headers: sessionHeaders(sseSession, '2025-03-26'), body });
    expect(streamed.status).toBe(200);
    const events = sseMessages(streamed.text) as Array<{ id: number | null; error?: { code: number } }>;
    expect(events.map((e) => e.id).sort()).toEqual([1, 2, null].sort());
    expect(events.filter((e) => e.error?.code === -32600)).toHaveLength(2);
  });

  it('does the same without sessions (stateless)', async () => {
    await using server = await startServer({ sessions: false, enableJsonResponse: true });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body: [
        { jsonrpc: '2.0', id: 'ok', method: 'ping' },
        { jsonrpc: '2.0', id: 'bad', method: 7 },
      ],
    });
    expect(reply.status).toBe(200);
    const answers = reply.json() as Array<{ id: string; result?: unknown; error?: { code: number } }>;
    expect(answers.find((a) => a.id === 'ok')?.result).toEqual({});
    expect(answers.find((a) => a.id === 'bad')?.error?.code).toBe(-32600);
  });

  it('answers a batch of only invalid elements and notifications with their errors (200, not 202)', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url, '2025-03-26');
    const reply = await raw(server.url, {
      headers: sessionHeaders(sessionId, '2025-03-26'),
      body: [{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, 42],
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
  });

  it('refuses a batch over maxBatchSize whole with 400 -32600 naming the option, in a session and stateless', async () => {
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'echo', params: { id } }));
    await using server = await startServer({ enableJsonResponse: true, maxBatchSize: 2 });
    const sessionId = await openSession(server.url, '2025-03-26');
    const refused = await raw(server.url, { headers: sessionHeaders(sessionId, '2025-03-26'), body: batch });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: -32600 } });
    expect(refused.text).toContain('maxBatchSize');
    const fits = await raw(server.url, {
      headers: sessionHeaders(sessionId, '2025-03-26'),
      body: batch.slice(0, 2),
    });
    expect(fits.status).toBe(200);
    await using stateless = await startServer({
      enableJsonResponse: true,
      sessions: false,
      maxBatchSize: 2,
    });
    const statelessRefused = await raw(stateless.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body: batch,
    });
    expect(statelessRefused.status).toBe(400);
    expect(statelessRefused.text).toContain('maxBatchSize');
  });

  it('refuses batches on later versions and batched initialize (400)', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url, V);
    const later = await raw(server.url, {
      headers: sessionHeaders(sessionId, V),
      body: [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    });
    expect(later.status).toBe(400);
    const negotiatedLater = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId },
      body: [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    });
    expect(negotiatedLater.status).toBe(400);
    const init = await raw(server.url, { headers: POST_HEADERS, body: [initializeRequest(1, '2025-03-26')] });
    expect(init.status).toBe(400);
  });
});

describe('stateless mode', () => {
  it('answers without sessions, one transport per POST; GET and DELETE are 405', async () => {
    await using server = await startServer({ sessions: false, enableJsonResponse: true });
    const init = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(init.status).toBe(200);
    expect(init.headers['mcp-session-id']).toBeUndefined();
    const ping = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': V },
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(server.transports).toHaveLength(2);
    await waitFor(() => server.transports.every((t) => (t as unknown as { closed: boolean }).closed), {
      what: 'per-request transports to close',
    });
    expect((await raw(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    expect((await raw(server.url, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('graceful shutdown', () => {
  it('close() ends open streams, closes every session and refuses new requests with 503', async () => {
    const server = await startServer();
    try {
      const sessionId = await openSession(server.url);
      const response = await fetch(server.url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      });
      let closes = 0;
      server.transports[0]!.onclose = () => closes++;
      const drained = response.text();
      await server.handler.close();
      await drained;
      expect(closes).toBe(1);
      expect(server.handler.sessionCount).toBe(0);
      const after = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
      expect(after.status).toBe(503);
    } finally {
      await server.close();
    }
  });
});

it('parseSse helper reads priming events', () => {
  expect(parseSse('id: a\nretry: 5\ndata: \n\n: c\n\ndata: {}\n\n')).toEqual([
    { id: 'a', retry: 5, data: '' },
    { data: '{}' },
  ]);
});
