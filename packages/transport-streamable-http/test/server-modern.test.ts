import type { JSONRPCMessage, MessageExtraInfo } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { encodeHeaderValue, paramHeadersOf } from '../src/index.js';
import { POST_HEADERS, raw, sseMessages, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } };
}

function modernHeaders(method: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': method, ...extra };
}

const weatherSchema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    limit: { type: 'integer', 'x-mcp-header': 'Limit' },
    q: { type: 'string' },
  },
};

describe('modern era (2026-07-28)', () => {
  it('serves a request statelessly: one transport per POST, no session id, JSON reply when the response comes first', async () => {
    await using server = await startServer();
    const reply = await raw(server.url, {
      headers: { ...modernHeaders('tools/call', { 'mcp-name': 'echo' }), 'mcp-session-id': 'ignored' },
      body: modernRequest('tools/call', { name: 'echo' }),
    });
    expect(reply.status).toBe(404); // our responder has no tools/call: -32601 → 404 per spec
    expect(reply.json()).toMatchObject({ id: 1, error: { code: -32601 } });
    const ok = await raw(server.url, {
      headers: modernHeaders('echo'),
      body: modernRequest('echo', { x: 1 }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(ok.headers['mcp-session-id']).toBeUndefined();
    expect(ok.json()).toMatchObject({ id: 1, result: { echoed: { x: 1 } } });
    expect(server.transports.map((t) => t.era)).toEqual(['modern', 'modern']);
    expect(server.handler.sessionCount).toBe(0);
  });

  it('switches to SSE when a notification precedes the response', async () => {
    await using server = await startServer({
      handlers: {
        slow: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 1, progress: 1 });
          return { ok: true };
        },
      },
    });
    const reply = await raw(server.url, { headers: modernHeaders('slow'), body: modernRequest('slow') });
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(sseMessages(reply.text).map((m) => ('method' in m ? m.method : m.id))).toEqual([
      'notifications/progress',
      1,
    ]);
  });

  it('refuses GET and DELETE with 405', async () => {
    await using server = await startServer();
    const get = await raw(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': M },
    });
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST');
    const del = await raw(server.url, { method: 'DELETE', headers: { 'mcp-protocol-version': M } });
    expect(del.status).toBe(405);
  });

  it.each([
    ['missing MCP-Protocol-Version', { ...POST_HEADERS, 'mcp-method': 'echo' }, modernRequest('echo')],
    [
      'version header ≠ _meta',
      modernHeaders('echo'),
      {
        ...modernRequest('echo'),
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2099-01-01',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    ],
    ['missing Mcp-Method', { ...POST_HEADERS, 'mcp-protocol-version': M }, modernRequest('echo')],
    ['Mcp-Method ≠ method', modernHeaders('other'), modernRequest('echo')],
    ['missing Mcp-Name', modernHeaders('tools/call'), modernRequest('tools/call', { name: 'a' })],
    [
      'Mcp-Name ≠ name',
      modernHeaders('tools/call', { 'mcp-name': 'b' }),
      modernRequest('tools/call', { name: 'a' }),
    ],
    [
      'Mcp-Name ≠ uri',
      modernHeaders('resources/read', { 'mcp-name': 'file:///b' }),
      modernRequest('resources/read', { uri: 'file:///a' }),
    ],
    [
      // SEP-2663 "Streamable HTTP: Routing Headers": Mcp-Name mirrors params.taskId on task methods.
      'Mcp-Name ≠ taskId (tasks/get)',
      modernHeaders('tasks/get', { 'mcp-name': 'task-b' }),
      modernRequest('tasks/get', { taskId: 'task-a' }),
    ],
    [
      'missing Mcp-Name (tasks/cancel)',
      modernHeaders('tasks/cancel'),
      modernRequest('tasks/cancel', { taskId: 'a' }),
    ],
    [
      'broken base64',
      modernHeaders('prompts/get', { 'mcp-name': '=?base64?@@@?=' }),
      modernRequest('prompts/get', { name: 'a' }),
    ],
  ])('answers 400 + -32020 for %s', async (_name, headers, body) => {
    await using server = await startServer();
    const reply = await raw(server.url, { headers, body });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32020 } });
    expect(server.transports).toHaveLength(0);
  });

  it.each([
    ['no _meta', {}],
    ['_meta without protocolVersion', { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }],
    ['_meta without clientCapabilities', { _meta: { 'io.modelcontextprotocol/protocolVersion': M } }],
  ])('answers 400 + -32602 for a request with %s (basic/index "Request metadata")', async (_name, params) => {
    await using server = await startServer();
    const reply = await raw(server.url, {
      headers: modernHeaders('echo'),
      body: { jsonrpc: '2.0', id: 7, method: 'echo', params },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expect(server.transports).toHaveLength(0);
  });

  it('decodes a Base64-sentinel Mcp-Name before comparing', async () => {
    await using server = await startServer({ handlers: { 'prompts/get': () => ({ messages: [] }) } });
    const name = 'Grüße, 世界';
    const reply = await raw(server.url, {
      headers: modernHeaders('prompts/get', { 'mcp-name': encodeHeaderValue(name) }),
      body: modernRequest('prompts/get', { name }),
    });
    expect(encodeHeaderValue(name)).toMatch(/^=\?base64\?.+\?=$/);
    expect(reply.status).toBe(200);
  });

  it('validates Mcp-Param-* headers against the declared x-mcp-header arguments', async () => {
    const declared = paramHeadersOf(weatherSchema);
    await using server = await startServer({
      paramHeaders: (tool) => (tool === 'weather' ? declared : undefined),
      handlers: { 'tools/call': () => ({ content: [] }) },
    });
    const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
      raw(server.url, {
        headers: modernHeaders('tools/call', { 'mcp-name': 'weather', ...headers }),
        body: modernRequest('tools/call', { name: 'weather', arguments: args }),
      });
    expect(
      (
        await call(
          { region: 'us-west1', limit: 42 },
          { 'mcp-param-region': 'us-west1', 'mcp-param-limit': '42.0' },
        )
      ).status,
    ).toBe(200);
    expect(
      (await call({ region: ' padded ' }, { 'mcp-param-region': encodeHeaderValue(' padded ') })).status,
    ).toBe(200);
    expect((await call({ q: 'x' }, {})).status).toBe(200);
    const missing = await call({ region: 'us-west1' }, {});
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ error: { code: -32020 } });
    expect((await call({ region: 'us-west1' }, { 'mcp-param-region': 'eu-west1' })).status).toBe(400);
    expect((await call({ limit: 7 }, { 'mcp-param-limit': '8' })).status).toBe(400);
    expect((await call({}, { 'mcp-param-region': 'eu' })).status).toBe(400);
  });

  it('answers an unsupported version with 400 + -32022 listing the supported ones', async () => {
    await using server = await startServer();
    const reply = await raw(server.url, {
      headers: { ...modernHeaders('echo'), 'mcp-protocol-version': '2099-01-01' },
      body: {
        ...modernRequest('echo'),
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({
      id: 1,
      error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining([M]) } },
    });
  });

  it('treats a client disconnect as cancellation: signal aborted and notifications/cancelled delivered', async () => {
    const seen: string[] = [];
    let aborted = false;
    await using server = await startServer({
      handlers: {
        hang: (_p, ctx) =>
          new Promise((resolve) => {
            ctx.extra?.signal?.addEventListener('abort', () => {
              aborted = true;
              resolve({});
            });
          }),
      },
    });
    const controller = new AbortController();
    const pending = fetch(server.url, {
      method: 'POST',
      headers: modernHeaders('hang'),
      body: JSON.stringify(modernRequest('hang', {}, 'h1')),
      signal: controller.signal,
    }).catch(() => undefined);
    await waitFor(() => server.transports.length === 1, { what: 'the request to arrive' });
    const transport = server.transports[0]!;
    const original = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message) seen.push(`${message.method}:${JSON.stringify(message.params)}`);
      original?.(message, extra);
    };
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    controller.abort();
    await pending;
    await waitFor(() => aborted && closed, { what: 'cancellation' });
    expect(seen).toEqual([
      'notifications/cancelled:{"requestId":"h1","reason":"The client closed the response stream"}',
    ]);
    await expect(transport.send({ jsonrpc: '2.0', id: 'h1', result: {} })).rejects.toThrow();
  });

  it('creates the requester signal on first read: none for a handler that never reads it, aborted when read after a disconnect', async () => {
    let extraOfHang: MessageExtraInfo | undefined;
    await using server = await startServer({
      handlers: {
        echo: () => ({}),
        hang: (_p, ctx) => {
          extraOfHang = ctx.extra;
          return new Promise(() => {});
        },
      },
    });
    const Original = globalThis.AbortController;
    let created = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        created++;
      }
    };
    try {
      const ok = await raw(server.url, { headers: modernHeaders('echo'), body: modernRequest('echo') });
      expect(ok.status).toBe(200);
      expect(created).toBe(0);
    } finally {
      globalThis.AbortController = Original;
    }
    const controller = new AbortController();
    const pending = fetch(server.url, {
      method: 'POST',
      headers: modernHeaders('hang'),
      body: JSON.stringify(modernRequest('hang', {}, 'h2')),
      signal: controller.signal,
    }).catch(() => undefined);
    await waitFor(() => extraOfHang !== undefined, { what: 'the request to reach its handler' });
    let closed = false;
    server.transports[1]!.onclose = () => {
      closed = true;
    };
    controller.abort();
    await pending;
    await waitFor(() => closed, { what: 'the transport to close' });
    const signal = extraOfHang?.signal;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ message: 'The client closed the response stream' });
    expect(extraOfHang?.requestInfo?.headers['mcp-method']).toBe('hang');
  });

  it('keeps a subscriptions/listen stream open with keep-alive comments until the server ends it', async () => {
    await using server = await startServer({
      keepAliveMs: 20,
      handlers: {
        'subscriptions/listen': (_p, ctx) =>
          ctx
            .notify('notifications/subscriptions/acknowledged', {
              _meta: { 'io.modelcontextprotocol/subscriptionId': ctx.id },
              notifications: { toolsListChanged: true },
            })
            .then(() => new Promise(() => {})),
      },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
      body: JSON.stringify(
        modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }, 9),
      ),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(':\n\n:\n\n') || sseMessages(text).length < 1)
      text += (await reader.read()).value ?? '';
    const transport = server.transports[0]!;
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
    await transport.send({ jsonrpc: '2.0', id: 9, result: { resultType: 'complete' } });
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(sseMessages(text).map((m) => ('method' in m ? m.method : m.id))).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      9,
    ]);
  });

  it('refuses server-to-client requests on a modern transport', async () => {
    await using server = await startServer({
      handlers: { ask: () => new Promise(() => {}) },
    });
    let failure: unknown;
    const pending = raw(server.url, { headers: modernHeaders('ask'), body: modernRequest('ask') });
    await waitFor(() => server.transports.length === 1, { what: 'transport' });
    const transport = server.transports[0]!;
    await transport
      .send({ jsonrpc: '2.0', id: 'x', method: 'sampling/createMessage', params: {} })
      .catch((error: unknown) => {
        failure = error;
      });
    expect(failure).toMatchObject({ code: -32600 });
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await pending).status).toBe(200);
  });
});

describe('modern era with enableJsonResponse', () => {
  it('answers with JSON and drops notifications that cannot be carried', async () => {
    await using server = await startServer({
      enableJsonResponse: true,
      handlers: {
        slow: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 1, progress: 1 });
          return { ok: true };
        },
      },
    });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': 'slow' },
      body: modernRequest('slow'),
    });
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
  });
});
