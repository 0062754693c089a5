import { connect } from 'node:net';
import type { JSONRPCMessage } from '@x/protocol';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../src/index.js';
import { initializeRequest, openSession, POST_HEADERS, raw, sseMessages, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

/** Regression tests for issue #24 "Hardening", Streamable HTTP server side. */

const V = '2025-11-25';
const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function sessionHeaders(sessionId: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': V, ...extra };
}

/** A POST whose reply (status, headers) is awaited but whose body is read only on demand. */
async function openPost(url: string, headers: Record<string, string>, body: unknown) {
  const response = await undiciRequest(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return {
    status: response.statusCode,
    /** Resolves with the whole body once the server ends the response. */
    text: () => response.body.text(),
  };
}

/** A promise the test resolves: a tool that answers only when told to. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

const NEVER = new Promise<never>(() => {});

describe('sessions are bound to the principal that opened them (item 1)', () => {
  const tokens: Record<string, { clientId: string; sub: string }> = {
    alice: { clientId: 'app', sub: 'alice' },
    bob: { clientId: 'app', sub: 'bob' },
    mallory: { clientId: 'other-app', sub: 'alice' },
    carol: { clientId: 'app', sub: 'carol' },
    dave: { clientId: 'app', sub: 'dave' },
  };
  const authenticate = (request: Request) => {
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const user = Object.hasOwn(tokens, token) ? tokens[token] : undefined;
    return user === undefined
      ? new Response('unknown token', { status: 401 })
      : { token, clientId: user.clientId, scopes: [], extra: { sub: user.sub } };
  };

  it('refuses POST, GET, GET with Last-Event-ID and DELETE of another principal with 403 and a JSON-RPC body', async () => {
    await using server = await startServer({ authenticate, eventStore: new InMemoryEventStore() });
    const init = await raw(server.url, {
      headers: { ...POST_HEADERS, authorization: 'Bearer alice' },
      body: initializeRequest(),
    });
    const sessionId = init.headers['mcp-session-id'] as string;
    const primed = sseMessages(init.text);
    expect(primed).toHaveLength(1);
    for (const intruder of ['bob', 'mallory']) {
      const headers = sessionHeaders(sessionId, { authorization: `Bearer ${intruder}` });
      const replies = [
        await raw(server.url, { headers, body: { jsonrpc: '2.0', id: 2, method: 'ping' } }),
        await raw(server.url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
        await raw(server.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }),
        await raw(server.url, {
          method: 'GET',
          headers: { ...headers, accept: 'text/event-stream', 'last-event-id': 'x' },
        }),
        await raw(server.url, { method: 'DELETE', headers }),
        await raw(server.url, { headers, body: initializeRequest(3) }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBe(403);
        expect(reply.json()).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Forbidden: the session belongs to another principal' },
        });
      }
    }
    expect(server.handler.sessionCount).toBe(1);
    const own = await raw(server.url, {
      headers: sessionHeaders(sessionId, { authorization: 'Bearer alice' }),
      body: { jsonrpc: '2.0', id: 4, method: 'ping' },
    });
    expect(own.status).toBe(200);
    expect(sseMessages(own.text)).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
  });

  it("a refused request does not keep another principal's session alive: it stays first to be evicted", async () => {
    await using server = await startServer({ authenticate, maxSessions: 2 });
    const open = async (user: string) => {
      const init = await raw(server.url, {
        headers: { ...POST_HEADERS, authorization: `Bearer ${user}` },
        body: initializeRequest(),
      });
      expect(init.status).toBe(200);
      return init.headers['mcp-session-id'] as string;
    };
    const alices = await open('alice');
    const carols = await open('carol');
    for (let i = 0; i < 3; i++) {
      const refused = await raw(server.url, {
        headers: sessionHeaders(alices, { authorization: 'Bearer bob' }),
        body: { jsonrpc: '2.0', id: 10 + i, method: 'ping' },
      });
      expect(refused.status).toBe(403);
    }
    // At the cap, the least recently *used* idle session goes: alice's, whatever bob sent to it.
    await open('dave');
    const ping = (sessionId: string, user: string) =>
      raw(server.url, {
        headers: sessionHeaders(sessionId, { authorization: `Bearer ${user}` }),
        body: { jsonrpc: '2.0', id: 20, method: 'ping' },
      });
    expect((await ping(alices, 'alice')).status).toBe(404);
    expect((await ping(carols, 'carol')).status).toBe(200);
  });

  it('takes a custom sessionPrincipal, and keeps anonymous sessions anonymous', async () => {
    await using server = await startServer({
      authenticate: (request) =>
        request.headers.get('authorization') === null
          ? undefined
          : { token: request.headers.get('authorization') as string, clientId: 'c', scopes: [] },
      sessionPrincipal: (auth) => auth.token,
    });
    const anonymous = await openSession(server.url);
    const claimed = await raw(server.url, {
      headers: sessionHeaders(anonymous, { authorization: 'one' }),
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(claimed.status).toBe(403);
    const init = await raw(server.url, {
      headers: { ...POST_HEADERS, authorization: 'one' },
      body: initializeRequest(),
    });
    const owned = init.headers['mcp-session-id'] as string;
    const other = await raw(server.url, {
      headers: sessionHeaders(owned, { authorization: 'two' }),
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(other.status).toBe(403);
    const bare = await raw(server.url, {
      headers: sessionHeaders(owned),
      body: { jsonrpc: '2.0', id: 2, method: 'ping' },
    });
    expect(bare.status).toBe(403);
  });
});

describe('the session table cannot be emptied cheaply (item 2)', () => {
  it('never evicts a session with a request in flight or a GET stream open; 503 + Retry-After when all are busy', async () => {
    await using server = await startServer({
      maxSessions: 2,
      handlers: { initialize: initializeResult, ping: () => ({}), hang: () => NEVER },
    });
    const busy = await openSession(server.url);
    const inflight = await openPost(server.url, sessionHeaders(busy), {
      jsonrpc: '2.0',
      id: 9,
      method: 'hang',
    });
    expect(inflight.status).toBe(200);
    const idle = await openSession(server.url);
    const third = await openSession(server.url); // evicts `idle`, not the busy session
    const stillThere = await raw(server.url, {
      headers: sessionHeaders(busy),
      body: { jsonrpc: '2.0', id: 10, method: 'ping' },
    });
    expect(stillThere.status).toBe(200);
    const gone = await raw(server.url, {
      headers: sessionHeaders(idle),
      body: { jsonrpc: '2.0', id: 10, method: 'ping' },
    });
    expect(gone.status).toBe(404);
    // The third session opens its GET stream: now both are busy.
    const stream = await undiciRequest(server.url, {
      method: 'GET',
      headers: { ...sessionHeaders(third), accept: 'text/event-stream' },
    });
    expect(stream.statusCode).toBe(200);
    const refused = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: expect.stringContaining('maxSessions (2)') },
    });
    expect(server.handler.sessionCount).toBe(2);
    await stream.body.destroy();
  });

  it('limits how fast one caller creates sessions (429 + Retry-After naming sessionRateLimit); false disables it', async () => {
    await using server = await startServer({ sessionRateLimit: { perSecond: 0.5, burst: 2 } });
    await openSession(server.url);
    await openSession(server.url);
    const refused = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining('sessionRateLimit (0.5/s, burst 2)') },
    });
    expect(server.handler.sessionCount).toBe(2);

    await using open = await startServer({ sessionRateLimit: false });
    for (let i = 0; i < 60; i++) await openSession(open.url);
    expect(open.handler.sessionCount).toBe(60);
  });

  it('rate-limits per caller by default: 50 in a burst, then 429', async () => {
    await using server = await startServer({ handlers: { initialize: initializeResult } });
    const statuses = await Promise.all(
      Array.from({ length: 55 }, async () => {
        const reply = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
        return reply.status;
      }),
    );
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(50);
    expect(statuses.filter((status) => status === 200).length).toBeLessThan(55);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
  });

  it('idle expiry skips a session with a request in flight', async () => {
    await using server = await startServer({
      // Long enough for each handshake to finish before expiry on a loaded machine.
      sessionIdleTimeoutMs: 1_000,
      handlers: { initialize: initializeResult, ping: () => ({}), hang: () => NEVER },
    });
    const busy = await openSession(server.url);
    const inflight = await openPost(server.url, sessionHeaders(busy), {
      jsonrpc: '2.0',
      id: 9,
      method: 'hang',
    });
    expect(inflight.status).toBe(200);
    const idle = await openSession(server.url);
    await waitFor(() => server.handler.sessionCount < 2, { what: 'the idle session to expire' });
    expect(server.handler.sessionCount).toBe(1);
    const ping = await raw(server.url, {
      headers: sessionHeaders(busy),
      body: { jsonrpc: '2.0', id: 10, method: 'ping' },
    });
    expect(ping.status).toBe(200);
    const expired = await raw(server.url, {
      headers: sessionHeaders(idle),
      body: { jsonrpc: '2.0', id: 10, method: 'ping' },
    });
    expect(expired.status).toBe(404);
  });
});

function initializeResult(params: Record<string, unknown> | undefined) {
  return {
    protocolVersion: (params?.['protocolVersion'] as string | undefined) ?? V,
    capabilities: {},
    serverInfo: { name: 'test', version: '1' },
  };
}

function nested(depth: number): string {
  return `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

describe('nesting depth (item 4)', () => {
  it('refuses a body nested deeper than maxNestingDepth with 400 -32700 naming the limit', async () => {
    await using server = await startServer();
    const sessionId = await openSession(server.url);
    const deep = await raw(server.url, { headers: sessionHeaders(sessionId), body: nested(200) });
    expect(deep.status).toBe(400);
    expect(deep.json()).toMatchObject({
      id: null,
      error: { code: -32700, message: expect.stringContaining('maxNestingDepth (128)') },
    });
    const modern = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': 'echo' },
      body: `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"_meta":${JSON.stringify(META)},"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`,
    });
    expect(modern.status).toBe(400);
    expect(modern.json()).toMatchObject({ error: { code: -32700 } });
    const fine = await raw(server.url, { headers: sessionHeaders(sessionId), body: nested(100) });
    expect(fine.status).toBe(200);
  });

  it('takes a maxNestingDepth option', async () => {
    await using server = await startServer({ maxNestingDepth: 300 });
    const sessionId = await openSession(server.url);
    const reply = await raw(server.url, { headers: sessionHeaders(sessionId), body: nested(250) });
    expect(reply.status).toBe(200);
    const tighter = await startServer({ maxNestingDepth: 4 });
    try {
      const refused = await raw(tighter.url, { headers: POST_HEADERS, body: nested(4) });
      expect(refused.json()).toMatchObject({
        error: { message: expect.stringContaining('maxNestingDepth (4)') },
      });
    } finally {
      await tighter.close();
    }
  });
});

describe('cancellation on a legacy session (item 8)', () => {
  for (const json of [false, true]) {
    it(`drops the request and ends its POST ${json ? 'JSON reply' : 'SSE stream'} on notifications/cancelled`, async () => {
      const seen: JSONRPCMessage[] = [];
      await using server = await startServer({
        enableJsonResponse: json,
        handlers: { initialize: initializeResult, ping: () => ({}), hang: () => NEVER },
      });
      const sessionId = await openSession(server.url);
      const transport = server.transports[0]!;
      const original = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        seen.push(message);
        original(message, extra);
      };
      const inflight = openPost(server.url, sessionHeaders(sessionId), {
        jsonrpc: '2.0',
        id: 'c1',
        method: 'hang',
      });
      await waitFor(() => seen.some((m) => 'id' in m && m.id === 'c1'), { what: 'the request to arrive' });
      const cancel = await raw(server.url, {
        headers: sessionHeaders(sessionId),
        body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1' } },
      });
      expect(cancel.status).toBe(202);
      // The POST ends without a response ("SHOULD NOT send a response for the cancelled request").
      const body = await (await inflight).text();
      expect(json ? body : sseMessages(body)).toEqual(json ? '' : []);
      // The server still heard the cancellation.
      expect(seen.some((m) => 'method' in m && m.method === 'notifications/cancelled')).toBe(true);
      // The id is free again: a new request with it is served, not refused as a duplicate.
      const again = await raw(server.url, {
        headers: sessionHeaders(sessionId),
        body: { jsonrpc: '2.0', id: 'c1', method: 'ping' },
      });
      expect(json ? again.json() : sseMessages(again.text)[0]).toEqual({
        jsonrpc: '2.0',
        id: 'c1',
        result: {},
      });
    });
  }
});

describe('duplicate in-flight request ids on a legacy session (item 10)', () => {
  for (const json of [false, true]) {
    it(`answers the duplicate with -32600 on its own POST and keeps the original's routing (${json ? 'JSON' : 'SSE'})`, async () => {
      const release = gate();
      let arrived = false;
      await using server = await startServer({
        enableJsonResponse: json,
        handlers: {
          initialize: initializeResult,
          slow: async () => {
            arrived = true;
            await release.wait;
            return { first: true };
          },
          echo: (params) => ({ echoed: params ?? null }),
        },
      });
      const sessionId = await openSession(server.url);
      const first = openPost(server.url, sessionHeaders(sessionId), {
        jsonrpc: '2.0',
        id: 5,
        method: 'slow',
      });
      await waitFor(() => arrived, { what: 'the first request to arrive' });
      const duplicate = await raw(server.url, {
        headers: sessionHeaders(sessionId),
        body: { jsonrpc: '2.0', id: 5, method: 'echo', params: { second: true } },
      });
      expect(duplicate.status).toBe(200);
      expect(duplicate.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32600, message: expect.stringContaining('already in use') },
      });
      release.open();
      const body = await (await first).text();
      const answer = json ? JSON.parse(body) : sseMessages(body)[0];
      expect(answer).toEqual({ jsonrpc: '2.0', id: 5, result: { first: true } });
    });
  }

  it('answers a duplicate element of a 2025-03-26 batch within that batch reply', async () => {
    const release = gate();
    let arrived = false;
    await using server = await startServer({
      enableJsonResponse: true,
      handlers: {
        initialize: initializeResult,
        slow: async () => {
          arrived = true;
          await release.wait;
          return { slow: true };
        },
        echo: (params) => ({ echoed: params ?? null }),
      },
    });
    const sessionId = await openSession(server.url, '2025-03-26');
    const headers = sessionHeaders(sessionId, { 'mcp-protocol-version': '2025-03-26' });
    const inflight = openPost(server.url, headers, { jsonrpc: '2.0', id: 'x', method: 'slow' });
    await waitFor(() => arrived, { what: 'the slow request to arrive' });
    const batch = await raw(server.url, {
      headers,
      body: [
        { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
        { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 2 } },
        { jsonrpc: '2.0', id: 'x', method: 'echo', params: { n: 3 } },
      ],
    });
    expect(batch.status).toBe(200);
    const replies = batch.json() as Array<{ id: unknown; error?: { code: number }; result?: unknown }>;
    expect(replies).toHaveLength(3);
    expect(replies.filter((r) => r.error?.code === -32600).map((r) => r.id)).toEqual([1, 'x']);
    expect(replies.find((r) => r.result !== undefined)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { echoed: { n: 1 } },
    });
    release.open();
    expect(JSON.parse(await (await inflight).text())).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      result: { slow: true },
    });
  });
});

describe('a response JSON cannot encode still ends its HTTP request (item 9)', () => {
  const handlers = {
    initialize: initializeResult,
    big: () => ({ n: 10n }),
    bigAfterNote: async (
      _params: unknown,
      ctx: { notify(method: string, params?: Record<string, unknown>): Promise<void> },
    ) => {
      await ctx.notify('notifications/message', { level: 'info', data: 'working' });
      return { n: 10n };
    },
  };
  const internal = {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32603, message: expect.stringContaining('could not be encoded as JSON') },
  };

  for (const json of [false, true]) {
    it(`legacy session, ${json ? 'JSON' : 'SSE'} reply: -32603 for that id`, async () => {
      const errors: Error[] = [];
      await using server = await startServer({ enableJsonResponse: json, handlers });
      const sessionId = await openSession(server.url);
      server.transports[0]!.onerror = (error) => errors.push(error);
      const reply = await raw(server.url, {
        headers: sessionHeaders(sessionId),
        body: { jsonrpc: '2.0', id: 1, method: 'big' },
      });
      expect(json ? reply.json() : sseMessages(reply.text)[0]).toEqual(internal);
      expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('BigInt')]);
    });

    it(`modern, ${json ? 'JSON' : 'SSE'} reply: -32603 for that id, and the HTTP request ends`, async () => {
      await using server = await startServer({ enableJsonResponse: json, handlers });
      const method = json ? 'big' : 'bigAfterNote';
      const reply = await raw(server.url, {
        headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': method },
        body: { jsonrpc: '2.0', id: 1, method, params: { _meta: META } },
      });
      expect(reply.status).toBe(200);
      const messages =
        reply.headers['content-type'] === 'application/json' ? [reply.json()] : sseMessages(reply.text);
      expect(messages.at(-1)).toEqual(internal);
    });
  }

  it('stateless legacy: -32603 for that id', async () => {
    await using server = await startServer({ sessions: false, handlers });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': V },
      body: { jsonrpc: '2.0', id: 1, method: 'big' },
    });
    expect(sseMessages(reply.text)).toEqual([internal]);
  });
});

describe('wire names index tables by own property only (item 12)', () => {
  for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    it(`a modern request for method "${method}" gets -32601, not a header error`, async () => {
      await using server = await startServer();
      const reply = await raw(server.url, {
        headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': method },
        body: `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":{"_meta":${JSON.stringify(META)}}}`,
      });
      expect(reply.status).toBe(404);
      expect(reply.json()).toMatchObject({ id: 1, error: { code: -32601 } });
    });
  }
});

describe('errors say what happened (item 14)', () => {
  it('a batch on 2026-07-28 is refused as a batch, not as an unsupported version', async () => {
    await using server = await startServer();
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': M },
      body: [{ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: META } }],
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        message: `Bad Request: JSON-RPC batches are not allowed on ${M}; send one message per POST`,
      },
    });
  });

  it('`Host: [` gets 400 with a JSON-RPC body, not an empty 500', async () => {
    await using server = await startServer({ dnsRebindingProtection: false });
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.end('GET /mcp HTTP/1.1\r\nHost: [\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(response.startsWith('HTTP/1.1 400')).toBe(true);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('Host') },
    });
  });
});
