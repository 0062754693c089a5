import { InMemoryTransport, LATEST_LEGACY_PROTOCOL_VERSION, type ServerCapabilities } from '@x/protocol';
import { describe, expect, it, vi } from 'vitest';
import { McpServer, Server } from '../src/index.js';
import { connect, initialize, LEGACY_CLIENT_INFO } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

function server(): McpServer {
  const s = new McpServer(
    { name: 'test-server', version: '1.2.3', title: 'Test', websiteUrl: 'https://example.com' },
    { instructions: 'Be nice.' },
  );
  s.registerTool('echo', { description: 'Echo' }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
  return s;
}

describe('legacy lifecycle', () => {
  it('answers initialize with the exact InitializeResult and tells the transport the version', async () => {
    const mcp = server();
    const setProtocolVersion = vi.fn();
    const wire = await connect(mcp);
    await wire.call('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: LEGACY_CLIENT_INFO,
    });
    expect(wire.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { logging: {}, tools: { listChanged: true } },
          serverInfo: {
            name: 'test-server',
            version: '1.2.3',
            title: 'Test',
            websiteUrl: 'https://example.com',
          },
          instructions: 'Be nice.',
        },
      },
    ]);
    expect(wire.session.protocolVersion).toBe('2025-06-18');
    expect(wire.session.clientInfo).toEqual(LEGACY_CLIENT_INFO);

    const [c2, s2] = InMemoryTransport.createLinkedPair();
    Object.assign(s2, { setProtocolVersion });
    await mcp.connect(s2);
    const { Protocol, ResultSchema } = await import('@x/protocol');
    const raw = new Protocol();
    await raw.connect(c2);
    await raw.request(
      {
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: LEGACY_CLIENT_INFO },
      },
      ResultSchema,
    );
    expect(setProtocolVersion).toHaveBeenCalledWith('2024-11-05');
  });

  it('answers an unknown version with its newest legacy version', async () => {
    const wire = await connect(server());
    const result = await wire.call('initialize', {
      protocolVersion: '1999-01-01',
      capabilities: {},
      clientInfo: LEGACY_CLIENT_INFO,
    });
    expect(result['protocolVersion']).toBe(LATEST_LEGACY_PROTOCOL_VERSION);
  });

  it('refuses requests before initialize/initialized, except ping; refuses a second initialize', async () => {
    const wire = await connect(new McpServer({ name: 's', version: '1' }, { eras: 'legacy' }));
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32600 });
    await expect(wire.call('ping')).resolves.toEqual({});
    await wire.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: LEGACY_CLIENT_INFO,
    });
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32600, message: /initialized/ });
    await expect(wire.call('ping')).resolves.toEqual({});
    await wire.client.notification({ method: 'notifications/initialized' });
    await afterTimeouts(5);
    // Past the gate now: this server declares no tools, so the answer is -32601, not -32600.
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32601 });
    await expect(
      wire.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: LEGACY_CLIENT_INFO,
      }),
    ).rejects.toMatchObject({ code: -32600 });
  });

  it('rejects malformed initialize params with -32602', async () => {
    const wire = await connect(server());
    await expect(wire.call('initialize', { protocolVersion: 7 })).rejects.toMatchObject({ code: -32602 });
  });

  it('answers -32601 for methods the negotiated revision lacks or the server did not declare', async () => {
    const wire = await connect(server());
    await initialize(wire, { protocolVersion: '2025-06-18' });
    await expect(wire.call('server/discover')).rejects.toMatchObject({ code: -32601 });
    await expect(wire.call('tasks/list')).rejects.toMatchObject({ code: -32601 });
    await expect(wire.call('prompts/list')).rejects.toMatchObject({ code: -32601 });
    await expect(wire.call('resources/subscribe', { uri: 'x://y' })).rejects.toMatchObject({ code: -32601 });
    await expect(wire.call('ping')).resolves.toEqual({});
  });

  it('refuses to register a handler for an undeclared capability', () => {
    const low = new Server({ name: 's', version: '1' });
    expect(() => low.setRequestHandler('tools/call', () => ({ content: [] }))).toThrow(/tools/);
    low.registerCapabilities({ tools: {} });
    expect(() => low.setRequestHandler('tools/call', () => ({ content: [] }))).not.toThrow();
  });

  it('answers -32601 once a later registerCapabilities takes away the capability of a handler', async () => {
    const low = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
    low.setRequestHandler('tools/list', () => ({ tools: [] }));
    const wire = await connect(low);
    await initialize(wire);
    await expect(wire.call('tools/list')).resolves.toEqual({ tools: [] });
    low.registerCapabilities({ tools: undefined } as unknown as ServerCapabilities);
    await expect(wire.call('tools/list')).rejects.toMatchObject({ code: -32601 });
  });

  it('logs through ctx.log, honouring logging/setLevel', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.registerTool('noisy', {}, async (_args, ctx) => {
      await ctx.log('debug', 'fine detail');
      await ctx.log('error', { oops: true }, 'db');
      return { content: [] };
    });
    const wire = await connect(mcp);
    await initialize(wire);
    await wire.call('tools/call', { name: 'noisy' });
    expect(wire.notifications('notifications/message')).toEqual([
      { level: 'debug', data: 'fine detail' },
      { level: 'error', data: { oops: true }, logger: 'db' },
    ]);
    await expect(wire.call('logging/setLevel', { level: 'loud' })).rejects.toMatchObject({ code: -32602 });
    await wire.call('logging/setLevel', { level: 'warning' });
    wire.sent.length = 0;
    await wire.call('tools/call', { name: 'noisy' });
    expect(wire.notifications('notifications/message')).toEqual([
      { level: 'error', data: { oops: true }, logger: 'db' },
    ]);
  });

  it('low-level Server: custom methods, notification handlers, requests to the client', async () => {
    const low = new Server({ name: 'low', version: '1' }, { capabilities: { tools: {} } });
    low.setRequestHandler('x/echo', (params) => ({ echo: params['value'] }));
    const rootsChanged = vi.fn();
    low.setNotificationHandler('notifications/roots/list_changed', rootsChanged);
    const wire = await connect(low);
    await initialize(wire, { capabilities: { roots: { listChanged: true } } });
    await expect(wire.call('x/echo', { value: 42 })).resolves.toEqual({ echo: 42 });
    await wire.client.notification({ method: 'notifications/roots/list_changed' });
    await afterTimeouts(5);
    expect(rootsChanged).toHaveBeenCalledTimes(1);
    wire.client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///a' }] }));
    const { ListRootsResultSchema, CreateMessageResultSchema } = await import('@x/protocol');
    await expect(wire.session.request({ method: 'roots/list' }, ListRootsResultSchema)).resolves.toEqual({
      roots: [{ uri: 'file:///a' }],
    });
    await expect(
      wire.session.request(
        { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
        CreateMessageResultSchema,
      ),
    ).rejects.toThrow(/sampling/);
  });
});
