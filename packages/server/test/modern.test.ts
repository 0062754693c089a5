import { MetaKey } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index.js';
import { connect, initialize, modernMeta, responseTo } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

const SERVER_INFO = { name: 'modern', version: '2.0.0', description: 'd' };
const INFO_META = { [MetaKey.ServerInfo]: SERVER_INFO };

function build(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: 'Use wisely.', ...options });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('logs', {}, async (_args, ctx) => {
    await ctx.log('debug', 'debug line');
    await ctx.log('warning', 'warning line');
    return { content: [] };
  });
  server.registerResource(
    'doc',
    'test://doc',
    { mimeType: 'text/plain', cache: { ttlMs: 5000, cacheScope: 'public' } },
    (uri) => ({
      contents: [{ uri, text: 'doc' }],
    }),
  );
  server.registerResource('t', new ResourceTemplate('test://t/{x}'), {}, (uri) => ({
    contents: [{ uri, text: 'x' }],
  }));
  server.registerPrompt('p', {}, () => ({ messages: [] }));
  return server;
}

describe('2026-07-28: discover, _meta and errors', () => {
  it('answers server/discover with versions of both eras, capabilities, instructions, identity and a cache hint', async () => {
    const wire = await connect(build({ discoverCache: { ttlMs: 60_000, cacheScope: 'public' } }));
    await wire.call('server/discover', { _meta: modernMeta() });
    expect(wire.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
          capabilities: {
            logging: {},
            tools: { listChanged: true },
            resources: { subscribe: true, listChanged: true },
            prompts: { listChanged: true },
          },
          instructions: 'Use wisely.',
          ttlMs: 60_000,
          cacheScope: 'public',
          _meta: INFO_META,
        },
      },
    ]);
  });

  it('validates _meta on every request: missing fields -32602, unknown version -32022 with the supported list', async () => {
    const wire = await connect(build({ eras: 'modern' }));
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32602 });
    await expect(
      wire.call('tools/list', { _meta: { [MetaKey.ProtocolVersion]: '2026-07-28' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/clientCapabilities/) });
    await expect(
      wire.call('tools/list', { _meta: { ...modernMeta(), [MetaKey.ProtocolVersion]: '2099-01-01' } }),
    ).rejects.toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } });
    await expect(
      wire.call('tools/list', { _meta: modernMeta({}, { [MetaKey.LogLevel]: 'loud' }) }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('answers -32601 for methods 2026-07-28 removed, and for initialize on a modern-only server', async () => {
    const wire = await connect(build({ eras: 'modern' }));
    for (const method of [
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'tasks/list',
    ]) {
      await expect(
        wire.call(method, { _meta: modernMeta(), uri: 'test://doc', level: 'info' }),
      ).rejects.toMatchObject({
        code: -32601,
      });
    }
    await expect(
      wire.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    ).rejects.toMatchObject({ code: -32601, data: { supported: ['2026-07-28'] } });
  });

  it('puts resultType and serverInfo on every result and cache hints on cacheable ones', async () => {
    const wire = await connect(build({ cache: { tools: { ttlMs: 1000, cacheScope: 'public' } } }));
    const _meta = modernMeta();
    await expect(
      wire.call('tools/call', { _meta, name: 'echo', arguments: { text: 'hi' } }),
    ).resolves.toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'hi' }],
      _meta: INFO_META,
    });
    const tools = await wire.call('tools/list', { _meta });
    expect(tools).toMatchObject({
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      _meta: INFO_META,
    });
    expect((tools['tools'] as Array<{ name: string }>).map((t) => t.name)).toEqual(['echo', 'logs']);
    for (const method of ['prompts/list', 'resources/list', 'resources/templates/list']) {
      await expect(wire.call(method, { _meta })).resolves.toMatchObject({
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'public',
      });
    }
    await expect(wire.call('resources/read', { _meta, uri: 'test://doc' })).resolves.toEqual({
      resultType: 'complete',
      contents: [{ uri: 'test://doc', text: 'doc' }],
      ttlMs: 5000,
      cacheScope: 'public',
      _meta: INFO_META,
    });
    await expect(wire.call('resources/read', { _meta, uri: 'test://t/1' })).resolves.toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });
    await expect(wire.call('prompts/get', { _meta, name: 'p' })).resolves.toEqual({
      resultType: 'complete',
      messages: [],
      _meta: INFO_META,
    });
  });

  it('answers an unknown resource with -32602 and data.uri', async () => {
    const wire = await connect(build());
    await expect(
      wire.call('resources/read', { _meta: modernMeta(), uri: 'test://none' }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'test://none' },
    });
  });

  it('logs only when the request asks, at or above its level, related to that request', async () => {
    const wire = await connect(build());
    await wire.call('tools/call', { _meta: modernMeta(), name: 'logs' });
    expect(wire.notifications('notifications/message')).toEqual([]);
    await wire.call('tools/call', { _meta: modernMeta({}, { [MetaKey.LogLevel]: 'info' }), name: 'logs' });
    expect(wire.notifications('notifications/message')).toEqual([{ level: 'warning', data: 'warning line' }]);
    const index = wire.sent.findIndex((m) => 'method' in m && m.method === 'notifications/message');
    expect(wire.sendOptions[index]).toEqual({ relatedRequestId: 2 });
  });

  it('reports progress for a progress token; cancellation aborts the handler and sends nothing', async () => {
    const server = build();
    let reason: unknown;
    server.registerTool('wait', {}, async (_args, ctx) => {
      await ctx.sendProgress({ progress: 1, total: 2 });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      reason = ctx.signal.reason;
      return { content: [] };
    });
    const wire = await connect(server);
    const pending = wire.call('tools/call', {
      _meta: modernMeta({}, { progressToken: 'tok' }),
      name: 'wait',
    });
    pending.catch(() => {});
    await afterTimeouts(5);
    expect(wire.notifications('notifications/progress')).toEqual([
      { progressToken: 'tok', progress: 1, total: 2 },
    ]);
    await wire.client.notification({
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'bye' },
    });
    await afterTimeouts(5);
    expect(reason).toBeInstanceOf(DOMException);
    expect(responseTo(wire, 1)).toBeUndefined();
  });
});

describe('low-level Server on 2026-07-28', () => {
  it('adds resultType, serverInfo and a default private cache hint to plain handler results', async () => {
    const { Server } = await import('../src/index.js');
    const low = new Server(
      { name: 'low', version: '1' },
      { capabilities: { tools: {} }, serverInfoInResults: false },
    );
    low.setRequestHandler('tools/list', () => ({ tools: [] }));
    const wire = await connect(low);
    await wire.call('tools/list', { _meta: modernMeta() });
    expect(wire.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' },
      },
    ]);
  });
});

describe('era classification', () => {
  it('serves legacy and modern requests from one definition, even on the same connection', async () => {
    const wire = await connect(build());
    await expect(wire.call('tools/list', { _meta: modernMeta() })).resolves.toMatchObject({
      resultType: 'complete',
    });
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32602 });
    await initialize(wire);
    const legacy = await wire.call('tools/call', { name: 'echo', arguments: { text: 'a' } });
    expect(legacy).toEqual({ content: [{ type: 'text', text: 'a' }] });
    const modern = await wire.call('tools/call', {
      _meta: modernMeta(),
      name: 'echo',
      arguments: { text: 'b' },
    });
    expect(modern['resultType']).toBe('complete');
  });

  it('an initialize carrying modern _meta is a removed method, even on a dual-era server', async () => {
    const wire = await connect(build());
    await expect(
      wire.call('initialize', {
        _meta: modernMeta(),
        protocolVersion: '2026-07-28',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    ).rejects.toMatchObject({
      code: -32601,
      data: { supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) },
    });
    expect(wire.session.legacy).toBeUndefined();
  });

  it('a legacy-only server treats modern _meta as plain metadata', async () => {
    const wire = await connect(build({ eras: 'legacy' }));
    await expect(wire.call('server/discover', { _meta: modernMeta() })).rejects.toMatchObject({
      code: -32600,
    });
    await initialize(wire);
    await expect(wire.call('server/discover', { _meta: modernMeta() })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(wire.call('tools/list', { _meta: modernMeta() })).resolves.not.toHaveProperty('resultType');
  });

  it('serves an assumed legacy session without initialize (stateless HTTP)', async () => {
    const wire = await connect(build(), { connect: { legacySession: { protocolVersion: '2025-06-18' } } });
    await expect(wire.call('tools/call', { name: 'echo', arguments: { text: 'x' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'x' }],
    });
  });
});
