import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage, Transport } from '@x/protocol';
import { MAX_AUTH_RETRIES } from '@x/protocol/http';
import { describe, expect, it } from 'vitest';
import {
  connectWithSseFallback,
  InMemoryEventStore,
  shouldFallBackToSse,
  StreamableHttpClientTransport,
  HttpStatusError,
} from '../src/index.js';
import { closeServer, miniClient, type ResponderContext, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function result(message: JSONRPCMessage): unknown {
  return 'result' in message ? message.result : 'error' in message ? message.error : undefined;
}

describe('client ↔ server, legacy era', () => {
  it.each([
    ['SSE', false],
    ['JSON', true],
  ])(
    'initializes, calls, receives GET-stream notifications and answers server requests (%s replies)',
    async (_n, json) => {
      await using server = await startServer({
        enableJsonResponse: json,
        handlers: {
          initialize: () => ({
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          }),
          echo: (params) => ({ echoed: params }),
          ask: async (_p, ctx) => ({ answer: result(await ctx.request('roots/list')) }),
        },
      });
      const transport = new StreamableHttpClientTransport(server.url);
      const client = miniClient(transport, (method) =>
        method === 'roots/list' ? { roots: [{ uri: 'file:///r' }] } : {},
      );
      await transport.start();
      await client.initialize();
      expect(transport.sessionId).toBe(server.transports[0]!.sessionId);
      expect(result(await client.request('echo', { x: 1 }))).toEqual({ echoed: { x: 1 } });
      expect(result(await client.request('ask'))).toEqual({ answer: { roots: [{ uri: 'file:///r' }] } });
      // The GET stream opens after `notifications/initialized`; wait for it, then push an unrelated notification.
      const session = server.transports[0] as unknown as { hasOpenStream: boolean };
      await waitFor(() => session.hasOpenStream, { what: 'GET stream' });
      await server.transports[0]!.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      await waitFor(
        () => client.received.some((m) => 'method' in m && m.method === 'notifications/tools/list_changed'),
        { what: 'notification' },
      );
      await transport.close();
      await waitFor(() => server.handler.sessionCount === 0, { what: 'DELETE on close' });
    },
  );

  it('re-initializes transparently when the session is gone (404) and retries the call', async () => {
    await using server = await startServer();
    const transport = new StreamableHttpClientTransport(server.url);
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    const first = transport.sessionId;
    await server.transports[0]!.close(); // server forgets the session: next request gets 404
    expect(result(await client.request('echo', { again: true }))).toEqual({ echoed: { again: true } });
    expect(transport.sessionId).not.toBe(first);
    expect(server.transports).toHaveLength(2);
    // The caller saw exactly one initialize response (its own) and the echo: the re-init was invisible.
    const responses = client.received.filter((m) => 'result' in m);
    expect(responses.map((m) => (m as { id: unknown }).id)).toEqual([1, 2]);
    await transport.close();
  });

  it('also survives idle expiry on the server', async () => {
    // Long enough that the re-initialized session outlives the retried request on a loaded machine.
    await using server = await startServer({ sessionIdleTimeoutMs: 250 });
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    await waitFor(() => server.handler.sessionCount === 0, { what: 'session expiry' });
    expect(result(await client.request('ping'))).toEqual({});
    await transport.close();
  });

  it('resumes a stream the server closed mid-call, honouring retry, with no lost or duplicated message', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await using server = await startServer({
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 10,
      handlers: {
        initialize: () => ({
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
        long: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 'x', progress: 1 });
          ctx.extra?.closeSSEStream?.();
          await ctx.notify('notifications/progress', { progressToken: 'x', progress: 2 });
          await released;
          await ctx.notify('notifications/progress', { progressToken: 'x', progress: 3 });
          return { finished: true };
        },
      },
    });
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    const call = client.request('long');
    await waitFor(
      () => client.received.filter((m) => 'method' in m && m.method === 'notifications/progress').length >= 2,
      { what: 'progress 2' },
    );
    release();
    expect(result(await call)).toEqual({ finished: true });
    const progress = client.received
      .filter((m) => 'method' in m && m.method === 'notifications/progress')
      .map((m) => (m as unknown as { params: { progress: number } }).params.progress);
    expect(progress).toEqual([1, 2, 3]);
    await transport.close();
  });

  it('resumes after the network drops the POST stream mid-call (Last-Event-ID), exactly once per message', async () => {
    let callResponse: import('node:http').ServerResponse | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await using server = await startServer({
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 10,
      onRequest: (req, res) => {
        if (req.method === 'POST' && req.headers['content-length'] !== undefined) callResponse = res;
      },
      handlers: {
        initialize: () => ({
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
        long: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 'd', progress: 1 });
          await released;
          await ctx.notify('notifications/progress', { progressToken: 'd', progress: 2 });
          return { survived: true };
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
    await waitFor(() => client.received.some((m) => 'method' in m && m.method === 'notifications/progress'), {
      what: 'progress 1',
    });
    callResponse!.socket!.destroy(); // the network drops the stream; the server is not told why
    release();
    expect(result(await call)).toEqual({ survived: true });
    const progress = client.received
      .filter((m) => 'method' in m && m.method === 'notifications/progress')
      .map((m) => (m as unknown as { params: { progress: number } }).params.progress);
    expect(progress).toEqual([1, 2]);
    expect(errors.some((e) => e.message.includes('SSE stream disconnected'))).toBe(true);
    await transport.close();
  });

  it('handles 200 concurrent sessions', async () => {
    // One address opening 200 sessions at once is past the default sessionRateLimit (burst 50).
    await using server = await startServer({ enableJsonResponse: true, sessionRateLimit: false });
    const transports = Array.from(
      { length: 200 },
      () => new StreamableHttpClientTransport(server.url, { standaloneStream: false }),
    );
    const results = await Promise.all(
      transports.map(async (transport, i) => {
        const client = miniClient(transport);
        await transport.start();
        await client.initialize();
        return result(await client.request('echo', { i }));
      }),
    );
    expect(results).toEqual(Array.from({ length: 200 }, (_, i) => ({ echoed: { i } })));
    expect(server.handler.sessionCount).toBe(200);
    expect(new Set(transports.map((t) => t.sessionId)).size).toBe(200);
    await Promise.all(transports.map((t) => t.close()));
    expect(server.handler.sessionCount).toBe(0);
  });

  it('talks to a stateless server: no session, the refused GET stream (405) is tolerated silently', async () => {
    let gets = 0;
    await using server = await startServer({
      sessions: false,
      onRequest: (req) => {
        if (req.method === 'GET') gets++;
      },
    });
    const errors: Error[] = [];
    const transport = new StreamableHttpClientTransport(server.url);
    transport.onerror = (error) => errors.push(error);
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    expect(transport.sessionId).toBeUndefined();
    await waitFor(() => gets === 1, { what: 'the GET attempt' });
    expect(result(await client.request('echo', { s: 1 }))).toEqual({ echoed: { s: 1 } });
    await transport.close();
    expect(errors).toEqual([]);
  });

  it('works over an injected fetch', async () => {
    await using server = await startServer();
    let calls = 0;
    const transport = new StreamableHttpClientTransport(server.url, {
      fetch: (url, init) => {
        calls++;
        return fetch(url, init);
      },
      standaloneStream: false,
    });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    expect(result(await client.request('echo', { via: 'fetch' }))).toEqual({ echoed: { via: 'fetch' } });
    await transport.close();
    expect(calls).toBeGreaterThanOrEqual(4); // initialize, initialized, echo, DELETE
  });
});

describe('client ↔ server, modern era', () => {
  it('sends the mirrored headers (Base64 where needed, Mcp-Param-* learned from tools/list) and no session', async () => {
    const seen: Array<Record<string, unknown>> = [];
    await using server = await startServer({
      handlers: {
        'tools/list': () => ({
          tools: [
            {
              name: 'weather',
              inputSchema: {
                type: 'object',
                properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
              },
            },
            {
              name: 'bad',
              inputSchema: { type: 'object', properties: { v: { type: 'number', 'x-mcp-header': 'V' } } },
            },
          ],
        }),
        'tools/call': (_p, ctx) => {
          seen.push(ctx.extra?.requestInfo?.headers ?? {});
          return { content: [] };
        },
      },
    });
    const errors: Error[] = [];
    const transport = new StreamableHttpClientTransport(server.url);
    transport.onerror = (e) => errors.push(e);
    const client = miniClient(transport);
    await transport.start();
    const list = await client.request('tools/list', { _meta: META });
    // A tool whose annotation breaks the spec's constraints is excluded from the result.
    expect((result(list) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual([
      'weather',
    ]);
    expect(errors[0]?.message).toContain('bad');
    await client.request('tools/call', { name: 'weather', arguments: { region: 'Zürich' }, _meta: META });
    expect(seen[0]).toMatchObject({
      'mcp-protocol-version': M,
      'mcp-method': 'tools/call',
      'mcp-name': 'weather',
      'mcp-param-region': '=?base64?WsO8cmljaA==?=',
    });
    expect(seen[0]).not.toHaveProperty('mcp-session-id');
    expect(transport.sessionId).toBeUndefined();
    await transport.close();
  });

  it('sets Mcp-Name to params.taskId on tasks/get, tasks/update and tasks/cancel (SEP-2663)', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const record = (_p: unknown, ctx: ResponderContext) => {
      seen.push(ctx.extra?.requestInfo?.headers ?? {});
      return {};
    };
    await using server = await startServer({
      handlers: { 'tasks/get': record, 'tasks/update': record, 'tasks/cancel': record },
    });
    const transport = new StreamableHttpClientTransport(server.url);
    const client = miniClient(transport);
    await transport.start();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      await client.request(method, { taskId: 'task-7', inputResponses: {}, _meta: META });
    }
    expect(seen.map((h) => [h['mcp-method'], h['mcp-name']])).toEqual([
      ['tasks/get', 'task-7'],
      ['tasks/update', 'task-7'],
      ['tasks/cancel', 'task-7'],
    ]);
    await transport.close();
  });

  it('fails a request at once when its (non-resumable) modern stream ends without the response', async () => {
    const broken = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n',
      );
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const transport = new StreamableHttpClientTransport(
        `http://127.0.0.1:${(broken.address() as AddressInfo).port}/`,
      );
      const client = miniClient(transport);
      await transport.start();
      const answer = await client.request('tools/list', { _meta: META });
      expect(answer).toMatchObject({ id: 1, error: { code: -32000 } });
      await transport.close();
    } finally {
      await closeServer(broken);
    }
  });

  it('cancels by closing the response stream instead of POSTing notifications/cancelled', async () => {
    let aborted = false;
    await using server = await startServer({
      handlers: {
        hang: (_p, ctx) =>
          new Promise((resolve) =>
            ctx.extra?.signal?.addEventListener('abort', () => {
              aborted = true;
              resolve({});
            }),
          ),
      },
    });
    const transport = new StreamableHttpClientTransport(server.url);
    const client = miniClient(transport);
    await transport.start();
    void client.request('hang', { _meta: META }).catch(() => {});
    await waitFor(() => server.transports.length === 1, { what: 'request to arrive' });
    await client.notify('notifications/cancelled', { requestId: 1, reason: 'user' });
    await waitFor(() => aborted, { what: 'server-side cancellation' });
    expect(server.transports).toHaveLength(1); // no POST for the notification
    await transport.close();
  });
});

describe('client errors and hooks', () => {
  it('retries once after onUnauthorized returns true, with fresh getHeaders', async () => {
    let token = 'old';
    await using server = await startServer({
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer new'
          ? { token: 'new', clientId: 'c', scopes: [] }
          : new Response(null, { status: 401 }),
    });
    let unauthorized = 0;
    const transport = new StreamableHttpClientTransport(server.url, {
      getHeaders: () => ({ Authorization: `Bearer ${token}` }),
      onUnauthorized: (response) => {
        unauthorized++;
        expect(response.status).toBe(401);
        token = 'new';
        return true;
      },
      standaloneStream: false,
    });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    expect(unauthorized).toBe(1);
    await transport.close();
  });

  it('a 403 goes to onForbidden (step-up) and the request is sent once more when it returns true', async () => {
    let token = 'narrow';
    await using server = await startServer({
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer wide'
          ? { token: 'wide', clientId: 'c', scopes: ['all'] }
          : new Response(null, {
              status: 403,
              headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="all"' },
            }),
    });
    const challenges: string[] = [];
    const transport = new StreamableHttpClientTransport(server.url, {
      getHeaders: () => ({ authorization: `Bearer ${token}` }),
      onForbidden: (response) => {
        challenges.push(response.headers.get('www-authenticate') ?? '');
        token = 'wide';
        return true;
      },
      standaloneStream: false,
    });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    expect(challenges).toEqual(['Bearer error="insufficient_scope", scope="all"']);
    await transport.close();
  });

  it('a hook that returns false, or a 401 past MAX_AUTH_RETRIES (2) resends, surfaces the error with the status', async () => {
    await using server = await startServer({
      authenticate: () => new Response('go away', { status: 401 }),
    });
    let calls = 0;
    const refusing = new StreamableHttpClientTransport(server.url, {
      onUnauthorized: () => {
        calls++;
        return false;
      },
      standaloneStream: false,
    });
    await refusing.start();
    await expect(miniClient(refusing).initialize()).rejects.toMatchObject({ status: 401 });
    const hopeful = new StreamableHttpClientTransport(server.url, {
      onUnauthorized: () => {
        calls++;
        return true;
      },
      standaloneStream: false,
    });
    await hopeful.start();
    await expect(miniClient(hopeful).initialize()).rejects.toThrow(/HTTP 401: go away/);
    expect(calls).toBe(1 + MAX_AUTH_RETRIES);
    await refusing.close();
    await hopeful.close();
  });

  it('getHeaders learns each request (POST, the GET stream, DELETE); onResponse sees every reply', async () => {
    await using server = await startServer({});
    const requests: string[] = [];
    const statuses: number[] = [];
    const transport = new StreamableHttpClientTransport(server.url, {
      getHeaders: ({ method, url }) => {
        requests.push(`${method} ${url.pathname}`);
        return {};
      },
      onResponse: (response) => {
        expect(response.body).toBeNull();
        statuses.push(response.status);
      },
    });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    await waitFor(() => requests.includes('GET /mcp'), { what: 'the GET stream' });
    await transport.close();
    expect(requests).toEqual(['POST /mcp', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);
    expect(statuses).toEqual([200, 202, 200, 200]);
  });

  it('a 401 on the GET stream goes to onUnauthorized and the GET is sent again', async () => {
    let getToken = 'old';
    await using server = await startServer({
      authenticate: (request) =>
        request.method !== 'GET' || request.headers.get('authorization') === 'Bearer new'
          ? { token: 't', clientId: 'c', scopes: [] }
          : new Response(null, { status: 401 }),
    });
    const gets: string[] = [];
    const transport = new StreamableHttpClientTransport(server.url, {
      getHeaders: ({ method }) => {
        if (method === 'GET') gets.push(getToken);
        return { authorization: `Bearer ${getToken}` };
      },
      onUnauthorized: () => {
        getToken = 'new';
        return true;
      },
    });
    const client = miniClient(transport);
    await transport.start();
    await client.initialize();
    await waitFor(() => server.transports[0] !== undefined && gets.length === 2, { what: 'the second GET' });
    expect(gets).toEqual(['old', 'new']);
    await transport.close();
  });

  it('throws HttpStatusError with the status for a non-MCP endpoint, and the fallback helper switches', async () => {
    const plain = createServer((_req, res) => res.writeHead(405).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
      const transport = new StreamableHttpClientTransport(url);
      await transport.start();
      const error = await transport
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpStatusError);
      expect((error as HttpStatusError).status).toBe(405);
      expect(shouldFallBackToSse(new Error('wrapped', { cause: error }))).toBe(true);
      await transport.close();

      const used: string[] = [];
      const fake = (name: string): Transport => ({
        start: async () => {},
        send: async () => {},
        close: async () => {
          used.push(`close:${name}`);
        },
      });
      const outcome = await connectWithSseFallback({
        streamableHttp: () => new StreamableHttpClientTransport(url),
        sse: () => fake('sse'),
        connect: async (t) => {
          used.push(t instanceof StreamableHttpClientTransport ? 'connect:http' : 'connect:sse');
          await t.start();
          await t.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
          return 'ok';
        },
      });
      expect(outcome.usedFallback).toBe(true);
      expect(used).toEqual(['connect:http', 'connect:sse']);
    } finally {
      await closeServer(plain);
    }
  });

  it('does not fall back on a modern server error', () => {
    const modern = new HttpStatusError({
      status: 400,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32022, message: 'Unsupported protocol version' },
      }),
      message: 'x',
    });
    expect(modern.isModernServerError).toBe(true);
    expect(shouldFallBackToSse(modern)).toBe(false);
  });
});
