// The 1.x `types.js` schemas x-mcp had no counterpart for (JSON-RPC envelopes, per-side unions, base
// shapes): each must accept and refuse what the official SDK's own schema accepts and refuses. The
// official SDK 1.x is installed beside this package, so every sample is checked by both.
import * as official from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import * as compat from '../src/types.js';

const request = (method: string, params?: object, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});
const notification = (method: string, params?: object) => ({
  jsonrpc: '2.0',
  method,
  ...(params ? { params } : {}),
});

const samples: Record<string, unknown> = {
  initialize: request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'c', version: '1' },
  }),
  'tools/list': request('tools/list', { cursor: 'abc' }),
  'tools/call': request(
    'tools/call',
    { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7 } },
    'r-1',
  ),
  ping: request('ping'),
  'completion/complete (prompt)': request('completion/complete', {
    ref: { type: 'ref/prompt', name: 'p' },
    argument: { name: 'a', value: 'x' },
  }),
  'sampling/createMessage': request('sampling/createMessage', {
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    maxTokens: 10,
  }),
  'roots/list': request('roots/list'),
  'notifications/initialized': notification('notifications/initialized'),
  'notifications/progress': notification('notifications/progress', {
    progressToken: 1,
    progress: 0.5,
    total: 1,
  }),
  'notifications/message': notification('notifications/message', { level: 'info', data: 'x' }),
  'notifications/cancelled': notification('notifications/cancelled', { requestId: 3, reason: 'no' }),
  'notifications/roots/list_changed': notification('notifications/roots/list_changed'),
  'result (empty)': { jsonrpc: '2.0', id: 1, result: {} },
  'result (tools/call)': { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } },
  'result (list roots)': { jsonrpc: '2.0', id: 2, result: { roots: [{ uri: 'file:///tmp' }] } },
  error: { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } },
  'error without id': { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error', data: { at: 3 } } },
  'wrong version': { jsonrpc: '1.0', id: 1, method: 'ping' },
  'extra envelope key': { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  'fractional id': { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  'error with fractional code': { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
  'no method, no result': { jsonrpc: '2.0', id: 1 },
  'unknown method': request('tools/explode', {}),
  'tools/call without name': request('tools/call', { arguments: {} }),
};

const pairs = [
  'JSONRPCMessageSchema',
  'JSONRPCRequestSchema',
  'JSONRPCNotificationSchema',
  'JSONRPCResponseSchema',
  'JSONRPCResultResponseSchema',
  'JSONRPCErrorResponseSchema',
  'ClientRequestSchema',
  'ServerRequestSchema',
  'ClientNotificationSchema',
  'ServerNotificationSchema',
  'RequestSchema',
  'NotificationSchema',
] as const;

type Parser = { safeParse(value: unknown): { success: boolean } };

describe('types.js envelopes and unions agree with the official SDK 1.x', () => {
  it.each(pairs)('%s accepts and refuses what the official one does', (name) => {
    const ours = compat[name] as unknown as Parser;
    const theirs = official[name] as unknown as Parser;
    const verdicts = Object.entries(samples).map(([label, sample]) => {
      // The unions and base shapes take the message without its envelope, as 1.x parses them.
      const value =
        /^(Client|Server)|^(Request|Notification)Schema$/.test(name) && sample && typeof sample === 'object'
          ? (({ jsonrpc: _v, id: _i, ...rest }) => rest)(sample as { jsonrpc?: unknown; id?: unknown })
          : sample;
      return { label, ours: ours.safeParse(value).success, official: theirs.safeParse(value).success };
    });
    const disagreements = verdicts.filter((verdict) => verdict.ours !== verdict.official);
    expect(disagreements).toEqual([]);
    // Each schema both accepts and refuses something here, so the comparison means something.
    expect(new Set(verdicts.map((verdict) => verdict.ours)).size, name).toBe(2);
  });

  it('ServerResultSchema and ClientResultSchema take the results each side answers with', () => {
    expect(compat.ServerResultSchema.safeParse({ content: [{ type: 'text', text: 'ok' }] }).success).toBe(
      true,
    );
    expect(compat.ServerResultSchema.safeParse({ tools: [] }).success).toBe(true);
    expect(compat.ClientResultSchema.safeParse({ roots: [{ uri: 'file:///tmp' }] }).success).toBe(true);
    expect(compat.ClientResultSchema.safeParse({ action: 'accept', content: { a: 1 } }).success).toBe(true);
    expect(compat.ClientResultSchema.safeParse({ roots: 'none' }).success).toBe(
      official.ClientResultSchema.safeParse({ roots: 'none' }).success,
    );
  });

  it('ProgressSchema, PaginatedRequestSchema, SamplingContentSchema, the enum unions', () => {
    const cases: [keyof typeof compat & keyof typeof official, unknown][] = [
      ['ProgressSchema', { progress: 1, total: 2, message: 'half' }],
      ['ProgressSchema', { total: 2 }],
      ['PaginatedRequestSchema', { method: 'tools/list', params: { cursor: 'c' } }],
      ['PaginatedRequestSchema', { method: 'tools/list', params: { cursor: 3 } }],
      ['SamplingContentSchema', { type: 'text', text: 'hi' }],
      ['SamplingContentSchema', { type: 'resource_link', uri: 'file:///x', name: 'x' }],
      ['SingleSelectEnumSchemaSchema', { type: 'string', enum: ['a', 'b'] }],
      ['SingleSelectEnumSchemaSchema', { type: 'string', oneOf: [{ const: 'a', title: 'A' }] }],
      ['MultiSelectEnumSchemaSchema', { type: 'array', items: { type: 'string', enum: ['a'] } }],
      ['MultiSelectEnumSchemaSchema', { type: 'string', enum: ['a'] }],
      ['TaskCreationParamsSchema', { ttl: 1000 }],
      ['TaskCreationParamsSchema', { ttl: 'long' }],
      ['ResourceReferenceSchema', { type: 'ref/resource', uri: 'file:///{x}' }],
      ['ResourceReferenceSchema', { type: 'ref/prompt', name: 'p' }],
    ];
    for (const [name, value] of cases) {
      const ours = (compat[name] as unknown as Parser).safeParse(value).success;
      const theirs = (official[name] as unknown as Parser).safeParse(value).success;
      expect({ name, value, ours }).toEqual({ name, value, ours: theirs });
    }
    expect(compat.ListChangedOptionsBaseSchema.parse({})).toEqual(
      official.ListChangedOptionsBaseSchema.parse({}),
    );
  });

  it('assertCompleteRequest… narrow by reference type and throw TypeError otherwise', () => {
    const prompt = compat.CompleteRequestSchema.parse({
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } },
    });
    expect(() => compat.assertCompleteRequestPrompt(prompt)).not.toThrow();
    expect(() => compat.assertCompleteRequestResourceTemplate(prompt)).toThrow(TypeError);
    expect(() => compat.assertCompleteRequestResourceTemplate(prompt)).toThrow(/ref\/resource/);
  });

  it('isTaskAugmentedRequestParams agrees with the official one', () => {
    for (const value of [{ task: { ttl: 5 } }, { task: {} }, { name: 'x' }, { task: 'soon' }, null, 3]) {
      expect(compat.isTaskAugmentedRequestParams(value), JSON.stringify(value)).toBe(
        official.isTaskAugmentedRequestParams(value),
      );
    }
  });
});
