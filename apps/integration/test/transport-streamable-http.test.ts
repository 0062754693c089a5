import type { Client } from '@x/client';
import { ErrorCode, type JSONRPCMessage } from '@x/protocol';
import type { McpServer } from '@x/server';
import {
  InMemoryEventStore,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
  type StreamableHttpHandlerOptions,
  type StreamableHttpServerTransport,
} from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Hosted, hostHttp, only, posts, rawPost } from './fixtures/e2e-http.js';
import {
  createE2eServer,
  e2eClient,
  methodsOf,
  rejectionOf,
  Resources,
  tapReceived,
  textOf,
} from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue 6, end-to-end: the real x-mcp Client and McpServer over Streamable HTTP on 127.0.0.1, both eras,
// every response mode, sessions and their loss, resumption, DNS-rebinding protection. The HTTP exchanges
// are recorded on the server side (the client keeps its default undici requester) as wire evidence.

const resources = new Resources();
afterEach(() => resources.closeAll());

async function host(
  server: McpServer,
  options: Partial<StreamableHttpHandlerOptions> = {},
  onsession?: (transport: StreamableHttpServerTransport) => unknown,
): Promise<Hosted> {
  return resources.track(await hostHttp(server, options, onsession));
}

async function connect(
  hosted: Hosted,
  client: Client,
  options: StreamableHttpClientTransportOptions = {},
): Promise<{ client: Client; transport: StreamableHttpClientTransport; errors: Error[] }> {
  const transport = new StreamableHttpClientTransport(hosted.url, options);
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  resources.track(client);
  await client.connect(transport);
  return { client, transport, errors };
}

interface DropContext {
  hosted: Hosted;
  closeSSEStream: (() => void) | undefined;
  seen: readonly number[];
}

describe('Streamable HTTP end to end (issue 6)', () => {
  it('modern era: aborting a call closes its response stream, the cancellation (no notifications/cancelled)', async () => {
    // 2026-07-28 streamable-http, "Cancellation": "Closing the SSE response stream MUST be treated by the
    // server as cancellation of that request".
    const server = createE2eServer();
    let started!: () => void;
    const holding = new Promise<void>((resolve) => (started = resolve));
    let abortedOnServer = false;
    server.registerTool('hold', {}, async (_args, ctx) => {
      started();
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      abortedOnServer = true;
      return { content: [{ type: 'text', text: 'aborted' }] };
    });
    const hosted = await host(server);
    const { client } = await connect(hosted, e2eClient({ protocolVersion: 'modern' }));
    const controller = new AbortController();
    const call = client.callTool({ name: 'hold', arguments: {} }, { signal: controller.signal });
    await holding;
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    await waitFor(() => abortedOnServer, { what: 'the server to see the cancellation' });
    expect(posts(hosted.log, 'notifications/cancelled')).toHaveLength(0);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe(
      'still here',
    );
  });

  it('legacy era: initialize opens a session, every request carries it, close() DELETEs it', async () => {
    const hosted = await host(createE2eServer());
    const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }));

    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(hosted.handler.sessionCount).toBe(1);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');

    const init = only(posts(hosted.log, 'initialize'), 'initialize POST');
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.responseSessionId).toBe(sessionId);
    const call = only(posts(hosted.log, 'tools/call'), 'tools/call POST');
    expect(call.headers['mcp-session-id']).toBe(sessionId);
    expect(call.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(call.status).toBe(200);
    // The standalone GET stream of the session was opened after notifications/initialized.
    await waitFor(() => hosted.log.some((e) => e.method === 'GET'), { what: 'the GET stream' });
    const get = only(
      hosted.log.filter((e) => e.method === 'GET'),
      'GET',
    );
    expect([get.status, get.contentType, get.headers['mcp-session-id']]).toEqual([
      200,
      'text/event-stream',
      sessionId,
    ]);

    await client.close();
    const deleted = only(
      hosted.log.filter((e) => e.method === 'DELETE'),
      'DELETE',
    );
    expect([deleted.status, deleted.headers['mcp-session-id']]).toEqual([200, sessionId]);
    await waitFor(() => hosted.handler.sessionCount === 0, { what: 'the session to end' });
    expect(errors).toEqual([]);
  });

  it.each(['modern', 'auto'] as const)(
    'modern era (%s): stateless POSTs with Mcp-Method/Mcp-Name headers, no session, no GET, no DELETE',
    async (selection) => {
      const hosted = await host(createE2eServer());
      const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: selection }));

      expect(client.era).toBe('modern');
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
      await client.close();

      expect(transport.sessionId).toBeUndefined();
      expect(hosted.handler.sessionCount).toBe(0);
      expect(hosted.log.map((e) => e.method)).toEqual(['POST', 'POST']);
      expect(methodsOf(hosted.log.map((e) => e.body as JSONRPCMessage))).toEqual([
        'server/discover',
        'tools/call',
      ]);
      const call = only(posts(hosted.log, 'tools/call'), 'tools/call POST');
      expect(call.headers).toMatchObject({
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
        'mcp-protocol-version': '2026-07-28',
      });
      expect(hosted.log.every((e) => e.headers['mcp-session-id'] === undefined)).toBe(true);
      expect(hosted.log.every((e) => e.responseSessionId === null)).toBe(true);
      expect(errors).toEqual([]);
    },
  );

  it.each([
    { era: 'legacy', json: false, contentType: 'text/event-stream', progress: [1, 2, 3] },
    { era: 'legacy', json: true, contentType: 'application/json', progress: [] },
    { era: 'modern', json: false, contentType: 'text/event-stream', progress: [1, 2, 3] },
    { era: 'modern', json: true, contentType: 'application/json', progress: [] },
  ] as const)(
    '$era era, enableJsonResponse=$json: the tools/call reply is $contentType, progress seen $progress',
    async ({ era, json, contentType, progress }) => {
      const hosted = await host(createE2eServer(), { enableJsonResponse: json });
      const { client, errors } = await connect(hosted, e2eClient({ protocolVersion: era }));
      const seen: number[] = [];
      const result = await client.callTool(
        { name: 'progress', arguments: { steps: 3 } },
        { onprogress: (update) => seen.push(update.progress) },
      );
      expect(textOf(result)).toBe('done:3');
      const call = only(posts(hosted.log, 'tools/call'), 'tools/call POST');
      expect([call.status, call.contentType]).toEqual([200, contentType]);
      // A JSON reply carries the response alone: related notifications have nowhere to go (documented).
      expect(seen).toEqual(progress);
      expect(errors).toEqual([]);
    },
  );

  it('stateless mode: a default (auto) client goes modern; no session, no GET stream, one transport per POST', async () => {
    let transports = 0;
    const server = createE2eServer();
    const hosted = await host(server, { sessions: false }, (transport) => {
      transports++;
      return server.connect(transport);
    });
    const { client, errors } = await connect(hosted, e2eClient());
    expect(client.era).toBe('modern');
    const results = await Promise.all(
      ['a', 'b', 'c'].map((text) => client.callTool({ name: 'echo', arguments: { text } })),
    );
    expect(results.map(textOf)).toEqual(['a', 'b', 'c']);
    await client.close();
    expect(hosted.handler.sessionCount).toBe(0);
    expect(hosted.log.map((e) => e.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
    expect(transports).toBe(4);
    await waitFor(() => server.sessions.size === 0, { what: 'every per-request server session to end' });
    expect(errors).toEqual([]);
  });

  it('stateless mode: a pinned legacy client works (no session id, the refused GET is tolerated)', async () => {
    // Plain `server.connect(t)`: each non-initialize POST stands for an initialized session of the version
    // it declares (`Transport.statelessLegacyVersion`); this once needed a hand-written workaround.
    const server = createE2eServer();
    const hosted = await host(server, { sessions: false });
    const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }));
    expect(client.era).toBe('legacy');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('x');
    await waitFor(() => hosted.log.some((e) => e.method === 'GET'), { what: 'the GET attempt' });
    await client.close();
    expect(transport.sessionId).toBeUndefined();
    expect(hosted.log.map((e) => [e.method, e.status])).toEqual([
      ['POST', 200], // initialize
      ['POST', 202], // notifications/initialized
      ['GET', 405], // no standalone stream without sessions
      ['POST', 200], // tools/call
    ]);
    expect(hosted.log.every((e) => e.responseSessionId === null)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('200 concurrent sessions: 200 clients each initialize and call', async () => {
    // One address opening 200 sessions at once is past the default sessionRateLimit (burst 50).
    const hosted = await host(createE2eServer(), { sessionRateLimit: false });
    const clients = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const { client, transport } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }));
        const result = await client.callTool({ name: 'echo', arguments: { text: `client-${i}` } });
        return { client, sessionId: transport.sessionId, text: textOf(result) };
      }),
    );
    expect(clients.map((c) => c.text)).toEqual(Array.from({ length: 200 }, (_, i) => `client-${i}`));
    expect(new Set(clients.map((c) => c.sessionId)).size).toBe(200);
    expect(hosted.handler.sessionCount).toBe(200);
    // Each session also holds its standalone GET stream open meanwhile.
    await waitFor(() => hosted.log.filter((e) => e.method === 'GET').length === 200, {
      what: '200 GET streams',
      timeoutMs: 15_000,
    });
    expect(hosted.log.filter((e) => e.method === 'GET').every((e) => e.status === 200)).toBe(true);
    await Promise.all(clients.map(({ client }) => client.close()));
    await waitFor(() => hosted.handler.sessionCount === 0, { what: 'every session to be deleted' });
  });

  it('session expiry: the 404 makes the transport re-initialize and callTool just works, also for 5 calls at once', async () => {
    // An open GET stream keeps a session alive by design, so this client opens none.
    const hosted = await host(createE2eServer(), { sessionIdleTimeoutMs: 100 });
    const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }), {
      standaloneStream: false,
    });
    let closes = 0;
    client.onclose = () => closes++;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
    const first = transport.sessionId;
    await waitFor(() => hosted.handler.sessionCount === 0, { what: 'the idle session to expire' });

    const before = hosted.log.length;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    const second = transport.sessionId;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const replay = hosted.log.slice(before).map((e) => ({
      what: Array.isArray(e.body) || e.body === undefined ? e.method : (methodsOf([e.body])[0] ?? 'response'),
      session: e.headers['mcp-session-id'] ?? null,
      status: e.status,
    }));
    expect(replay).toEqual([
      { what: 'tools/call', session: first, status: 404 },
      { what: 'initialize', session: null, status: 200 },
      { what: 'notifications/initialized', session: second, status: 202 },
      { what: 'tools/call', session: second, status: 200 },
    ]);

    // Again, with five calls in flight when the session is found gone: one re-initialization serves all.
    await waitFor(() => hosted.handler.sessionCount === 0, { what: 'the second session to expire' });
    const again = hosted.log.length;
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => client.callTool({ name: 'echo', arguments: { text: `c${i}` } })),
    );
    expect(results.map(textOf)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    const third = transport.sessionId;
    const counts = new Map<string, number>();
    for (const e of hosted.log.slice(again)) {
      const what = e.body === undefined || Array.isArray(e.body) ? e.method : methodsOf([e.body])[0];
      const key = `${what} ${e.status} ${e.headers['mcp-session-id'] === third ? 'new' : 'old'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({
      'tools/call 404 old': 5,
      'initialize 200 old': 1, // sent without a session id
      'notifications/initialized 202 new': 1,
      'tools/call 200 new': 5,
    });
    expect(hosted.handler.sessionCount).toBe(1);
    expect(client.era).toBe('legacy');
    expect(closes).toBe(0);
    expect(errors).toEqual([]);
  });

  it('session eviction (maxSessions) never takes a session whose GET stream is open: the newcomer gets 503', async () => {
    // Issue 24, item 2: evicting a busy session would end its streams with no answer, so a flood of
    // initialize calls could empty the table.
    const hosted = await host(createE2eServer(), { maxSessions: 1 });
    const first = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }));
    await waitFor(() => hosted.log.some((e) => e.method === 'GET'), { what: 'the first GET stream' });
    const refused = await rejectionOf(connect(hosted, e2eClient({ protocolVersion: 'legacy' })));
    expect(refused).toMatchObject({ status: 503, message: expect.stringContaining('maxSessions (1)') });
    expect(textOf(await first.client.callTool({ name: 'echo', arguments: { text: '1' } }))).toBe('1');
    expect(first.errors).toEqual([]);
  });

  it('session eviction (maxSessions) of an idle session: the evicted client recovers on its own', async () => {
    const hosted = await host(createE2eServer(), { maxSessions: 1 });
    const first = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }), {
      standaloneStream: false,
    });
    const firstSession = first.transport.sessionId;
    const second = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }), {
      standaloneStream: false,
    });
    expect(textOf(await second.client.callTool({ name: 'echo', arguments: { text: '2' } }))).toBe('2');

    expect(textOf(await first.client.callTool({ name: 'echo', arguments: { text: '1' } }))).toBe('1');
    expect(first.transport.sessionId).not.toBe(firstSession);
    expect(first.client.era).toBe('legacy');
    expect(first.errors).toEqual([]);
  });

  it.each([
    {
      how: 'the server ends the stream (closeSSEStream, SEP-1699 polling)',
      drop: async ({ closeSSEStream }: DropContext) => {
        if (closeSSEStream === undefined) throw new Error('no closeSSEStream on a resumable stream');
        closeSSEStream();
      },
    },
    {
      how: 'the network drops the connection after the client saw progress 3',
      drop: async ({ hosted, seen }: DropContext) => {
        // Once the client holds an event id: with none, there is nothing to resume (see the report).
        await waitFor(() => seen.length === 3, { what: 'progress 3 at the client' });
        hosted.lastPost()?.socket?.destroy();
      },
    },
  ])('a dropped SSE stream mid-call resumes with no lost or duplicated message: $how', async ({ drop }) => {
    const seen: number[] = [];
    let hosted: Hosted | undefined;
    const server = createE2eServer({
      onDrop: ({ closeSSEStream }) => drop({ hosted: hosted!, closeSSEStream, seen }),
    });
    hosted = await host(server, { eventStore: new InMemoryEventStore(), retryIntervalMs: 10 });
    const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }), {
      standaloneStream: false,
    });
    const received = tapReceived(transport);
    const result = await client.callTool(
      { name: 'progress', arguments: { steps: 8, dropAfter: 3 } },
      { onprogress: (update) => seen.push(update.progress) },
    );
    expect(textOf(result)).toBe('done:8');
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const resumed = hosted.log.filter((e) => e.method === 'GET');
    expect(resumed.length).toBe(1);
    expect(resumed[0]!.headers['last-event-id']).toMatch(/#\d+$/);
    expect(resumed[0]!.status).toBe(200);
    // On the wire (below the engine, which ignores a repeated response): 8 notifications, 1 response.
    expect(methodsOf(received)).toEqual(Array.from({ length: 8 }, () => 'notifications/progress'));
    expect(received.filter((m) => !('method' in m))).toHaveLength(1);
    expect(errors.map((e) => e.message).filter((m) => !m.startsWith('SSE stream disconnected'))).toEqual([]);
  });

  it('refuses DNS rebinding: a foreign Host or Origin gets 403 before any session exists', async () => {
    let sessions = 0;
    const server = createE2eServer();
    const hosted = await host(server, {}, (transport) => {
      sessions++;
      return server.connect(transport);
    });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const port = hosted.url.port;
    const hostile = await rawPost(hosted.url, { host: `evil.example:${port}` }, initialize);
    expect(hostile.status).toBe(403);
    expect(JSON.parse(hostile.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    const foreignOrigin = await rawPost(hosted.url, { origin: 'http://evil.example' }, initialize);
    expect(foreignOrigin.status).toBe(403);
    expect(sessions).toBe(0);
    expect(hosted.handler.sessionCount).toBe(0);
    // Control: the same request from a loopback Host and Origin is served.
    const local = await rawPost(hosted.url, { origin: `http://localhost:${port}` }, initialize);
    expect(local.status).toBe(200);
    expect(sessions).toBe(1);
  });

  it.each([
    { json: false, callReply: 'text/event-stream' },
    { json: true, callReply: 'application/json' },
  ])(
    'legacy elicitation round trip: the answer arrives on a different POST (enableJsonResponse=$json)',
    async ({ json, callReply }) => {
      const hosted = await host(createE2eServer(), { enableJsonResponse: json });
      const { client, transport, errors } = await connect(hosted, e2eClient({ protocolVersion: 'legacy' }));
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('hello Ada');

      const call = only(posts(hosted.log, 'tools/call'), 'tools/call POST');
      const answer = only(posts(hosted.log, 'response'), 'POST carrying a response');
      expect(answer).not.toBe(call);
      expect(call.contentType).toBe(callReply); // JSON mode: the elicitation went out on the GET stream
      expect(answer.status).toBe(202);
      expect(answer.headers['mcp-session-id']).toBe(transport.sessionId);
      expect(answer.body).toMatchObject({ result: { action: 'accept', content: { name: 'Ada' } } });
      expect(errors).toEqual([]);
    },
  );

  it('modern elicitation: an input_required round trip over two POSTs, no server→client request', async () => {
    const hosted = await host(createE2eServer());
    const { client, errors } = await connect(hosted, e2eClient({ protocolVersion: 'modern' }));
    expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('hello Ada');
    const calls = posts(hosted.log, 'tools/call');
    expect(calls.map((e) => e.status)).toEqual([200, 200]);
    const retry = calls[1]!.body as { params: Record<string, unknown> };
    expect(typeof retry.params['requestState']).toBe('string');
    expect(retry.params['inputResponses']).toBeDefined();
    expect(posts(hosted.log, 'response')).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('Streamable HTTP: a response stream that cannot be resumed fails its call at once', () => {
  it.each([
    {
      how: 'no event store, the network drops the stream (no event id to resume from)',
      options: (): Partial<StreamableHttpHandlerOptions> => ({}),
      drop: async ({ hosted, seen }: DropContext) => {
        await waitFor(() => seen.length === 3, { what: 'progress 3 at the client' });
        hosted.lastPost()?.socket?.destroy();
      },
      reason: /cannot be resumed \(no event id\)/,
    },
    {
      how: 'the resume is refused (400): its Last-Event-ID was evicted from the event store',
      options: (): Partial<StreamableHttpHandlerOptions> => ({
        eventStore: new InMemoryEventStore({ maxEventsPerStream: 2 }),
        retryIntervalMs: 10,
      }),
      drop: async ({ closeSSEStream }: DropContext) => closeSSEStream?.(),
      reason: /Resuming the response stream failed with HTTP 400/,
    },
  ])('$how', async ({ options, drop, reason }) => {
    const seen: number[] = [];
    let hosted: Hosted | undefined;
    const server = createE2eServer({
      onDrop: ({ closeSSEStream }) => drop({ hosted: hosted!, closeSSEStream, seen }),
    });
    hosted = await host(server, options());
    // The request timeout is far beyond what the test waits: only the transport can fail the call.
    const { client } = await connect(hosted, e2eClient({ protocolVersion: 'legacy', timeout: 60_000 }), {
      standaloneStream: false,
    });
    const call = client.callTool(
      { name: 'progress', arguments: { steps: 8, dropAfter: 3 } },
      { onprogress: (update) => seen.push(update.progress) },
    );
    let error: unknown;
    call.catch((e: unknown) => (error = e));
    await waitFor(() => error !== undefined, { what: 'the call to fail', timeoutMs: 2_000 });
    expect(error).toMatchObject({ code: ErrorCode.ConnectionClosed, message: expect.stringMatching(reason) });
  });
});
