import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  CallToolResult,
  ClientNotificationMap,
  ClientRequestMap,
  ClientRequestMethod,
  ListToolsResult,
  ServerRequestMap,
} from '../src/schemas/index.js';
import {
  CallToolResultSchema,
  clientRequestSchemas,
  ContentBlockSchema,
  ElicitRequestParamsSchema,
  InitializeRequestParamsSchema,
  ListToolsResultSchema,
  MetaKey,
  methodsOf,
  RequestMetaObjectSchema,
  revisionSchemas,
  ServerCapabilitiesSchema,
  serverNotificationSchemas,
  ToolSchema,
} from '../src/schemas/index.js';

/** Per-revision differences the spec's changelogs call out, held explicitly. */

const schema = (version: keyof typeof revisionSchemas, name: string): z.ZodType => {
  const found = (revisionSchemas[version] as Readonly<Record<string, z.ZodType>>)[name];
  if (found === undefined) throw new Error(`${version} has no ${name}`);
  return found;
};
const accepts = (s: z.ZodType, value: unknown): boolean => s.safeParse(value).success;

const audio = { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' };
const link = { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' };
const meta2026 = {
  [MetaKey.ProtocolVersion]: '2026-07-28',
  [MetaKey.ClientCapabilities]: {},
};

describe('per-revision deltas', () => {
  it('audio content arrives in 2025-03-26', () => {
    expect(accepts(schema('2024-11-05', 'CallToolResult'), { content: [audio] })).toBe(false);
    expect(accepts(schema('2025-03-26', 'CallToolResult'), { content: [audio] })).toBe(true);
    expect(accepts(schema('2025-03-26', 'AudioContent'), audio)).toBe(true);
  });

  it('ContentBlock and resource links arrive in 2025-06-18', () => {
    expect(revisionSchemas['2025-03-26']).not.toHaveProperty('ContentBlock');
    expect(accepts(schema('2025-03-26', 'CallToolResult'), { content: [link] })).toBe(false);
    expect(accepts(schema('2025-06-18', 'ContentBlock'), link)).toBe(true);
    expect(accepts(schema('2025-06-18', 'ContentBlock'), audio)).toBe(true);
  });

  it('elicitation arrives in 2025-06-18, URL mode in 2025-11-25 (with an id that 2026-07-28 drops)', () => {
    expect(revisionSchemas['2025-03-26']).not.toHaveProperty('ElicitRequest');
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/auth' };
    expect(accepts(schema('2025-11-25', 'ElicitRequestURLParams'), url)).toBe(false);
    expect(accepts(schema('2025-11-25', 'ElicitRequestURLParams'), { ...url, elicitationId: 'e1' })).toBe(
      true,
    );
    expect(accepts(schema('2026-07-28', 'ElicitRequestURLParams'), url)).toBe(true);
    expect(accepts(ElicitRequestParamsSchema, url)).toBe(true);
  });

  it('2026-07-28 requires resultType on every result, and cache hints on list results', () => {
    expect(accepts(schema('2025-11-25', 'Result'), {})).toBe(true);
    expect(accepts(schema('2026-07-28', 'Result'), {})).toBe(false);
    expect(accepts(schema('2026-07-28', 'Result'), { resultType: 'complete' })).toBe(true);
    const list = { tools: [], resultType: 'complete' };
    expect(accepts(schema('2026-07-28', 'ListToolsResult'), list)).toBe(false);
    expect(
      accepts(schema('2026-07-28', 'ListToolsResult'), { ...list, ttlMs: 0, cacheScope: 'public' }),
    ).toBe(true);
    // The everyday schema takes both eras.
    expect(accepts(ListToolsResultSchema, { tools: [] })).toBe(true);
    expect(accepts(ListToolsResultSchema, { ...list, ttlMs: 0, cacheScope: 'private' })).toBe(true);
  });

  it('2026-07-28 requests carry protocol version and client capabilities in _meta', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    expect(accepts(schema('2026-07-28', 'ListToolsRequest'), request)).toBe(false);
    expect(
      accepts(schema('2026-07-28', 'ListToolsRequest'), { ...request, params: { _meta: meta2026 } }),
    ).toBe(true);
    expect(accepts(schema('2025-11-25', 'ListToolsRequest'), request)).toBe(true);
    expect(
      accepts(schema('2026-07-28', 'RequestMetaObject'), { [MetaKey.ProtocolVersion]: '2026-07-28' }),
    ).toBe(false);
    expect(accepts(RequestMetaObjectSchema, {})).toBe(true);
  });

  it('2026-07-28 drops the handshake, ping, setLevel, subscribe and tasks', () => {
    for (const name of ['InitializeRequest', 'PingRequest', 'SetLevelRequest', 'SubscribeRequest', 'Task']) {
      expect(revisionSchemas['2025-11-25']).toHaveProperty(name);
      expect(revisionSchemas['2026-07-28']).not.toHaveProperty(name);
    }
    const modern = methodsOf('2026-07-28');
    expect(modern.clientRequests.has('server/discover')).toBe(true);
    expect(modern.clientRequests.has('subscriptions/listen')).toBe(true);
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/get']) {
      expect(modern.clientRequests.has(method)).toBe(false);
    }
    expect(modern.serverRequests.size).toBe(0);
    expect(modern.inputRequests.has('elicitation/create')).toBe(true);
    expect(methodsOf('2025-06-18').clientRequests.has('server/discover')).toBe(false);
    expect(methodsOf('2025-06-18').serverRequests.has('elicitation/create')).toBe(true);
    expect(methodsOf('2025-03-26').serverRequests.has('elicitation/create')).toBe(false);
  });

  it('structuredContent is an object until 2025-11-25 and any JSON value in 2026-07-28', () => {
    const result = { content: [], structuredContent: [1, 2] };
    expect(accepts(schema('2025-11-25', 'CallToolResult'), result)).toBe(false);
    expect(accepts(schema('2026-07-28', 'CallToolResult'), { ...result, resultType: 'complete' })).toBe(true);
    expect(accepts(CallToolResultSchema, result)).toBe(true);
  });
});

describe('everyday superset schemas', () => {
  it('keep unknown keys at every level', () => {
    const tool = {
      name: 'echo',
      inputSchema: { type: 'object', additionalProperties: false, 'x-custom': 1 },
      'x-vendor': { a: 1 },
      annotations: { readOnlyHint: true, futureHint: 'yes' },
    };
    expect(ToolSchema.parse(tool)).toStrictEqual(tool);
    const capabilities = { tools: { listChanged: true, futureFlag: true }, future: {} };
    expect(ServerCapabilitiesSchema.parse(capabilities)).toStrictEqual(capabilities);
  });

  it('accept the 2024-11-05 shapes', () => {
    const params = {
      protocolVersion: '2024-11-05',
      capabilities: { roots: { listChanged: true }, sampling: {} },
      clientInfo: { name: 'c', version: '1' },
    };
    expect(accepts(InitializeRequestParamsSchema, params)).toBe(true);
    expect(accepts(schema('2024-11-05', 'InitializeRequest'), { method: 'initialize', params })).toBe(true);
  });

  it('reject a content block of an unknown type', () => {
    expect(accepts(ContentBlockSchema, { type: 'video', data: '' })).toBe(false);
  });

  it('map methods to params and result schemas', () => {
    expect(clientRequestSchemas['tools/call'].result).toBe(CallToolResultSchema);
    expect(clientRequestSchemas['tools/list'].params.safeParse(undefined).success).toBe(true);
    expect(clientRequestSchemas.initialize.params.safeParse(undefined).success).toBe(false);
    expect(serverNotificationSchemas['notifications/message'].safeParse({ level: 'info' }).success).toBe(
      false,
    );
    expect(
      serverNotificationSchemas['notifications/message'].safeParse({ level: 'info', data: 'x' }).success,
    ).toBe(true);
  });
});

describe('method map types', () => {
  it('type params and results per method', () => {
    expectTypeOf<ClientRequestMap['tools/call']['result']>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<ClientRequestMap['tools/list']['result']>().toEqualTypeOf<ListToolsResult>();
    expectTypeOf<ClientRequestMap['tools/call']['params']['name']>().toEqualTypeOf<string>();
    expectTypeOf<undefined>().toExtend<ClientRequestMap['tools/list']['params']>();
    expectTypeOf<undefined>().not.toExtend<ClientRequestMap['initialize']['params']>();
    expectTypeOf<'server/discover'>().toExtend<ClientRequestMethod>();
    expectTypeOf<ServerRequestMap['elicitation/create']['result']['action']>().toEqualTypeOf<
      'accept' | 'decline' | 'cancel'
    >();
    expectTypeOf<ClientNotificationMap['notifications/cancelled']['reason']>().toEqualTypeOf<
      string | undefined
    >();
  });
});
