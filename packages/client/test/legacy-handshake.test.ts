import { ConnectionClosedError, type Transport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Client, MethodNotSupportedError, NegotiationError } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake, SERVER_INFO } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

describe('legacy handshake', () => {
  it('sends initialize with version, capabilities and info, then notifications/initialized', async () => {
    const peer = await fakeServer((server) =>
      legacyHandshake(server, { capabilities: { tools: {} }, instructions: 'be nice' }),
    );
    const client = new Client(CLIENT_INFO, {
      protocolVersion: 'legacy',
      capabilities: { experimental: { x: {} } },
    });
    client.setSamplingHandler(() => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }));
    client.setElicitationHandler(() => ({ action: 'decline' }), { url: true });
    client.setRootsHandler(() => ({ roots: [] }));
    await client.connect(peer.transport);

    expect(peer.wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {
            experimental: { x: {} },
            sampling: {},
            elicitation: { form: {}, url: {} },
            roots: { listChanged: true },
          },
          clientInfo: CLIENT_INFO,
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverCapabilities).toEqual({ tools: {} });
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.instructions).toBe('be nice');
    expect(peer.protocolVersions).toEqual(['2025-11-25']);
    await client.close();
    expect(client.era).toBeUndefined();
  });

  it('accepts an older supported version the server picks', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server, { protocolVersion: '2024-11-05' }));
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await client.connect(peer.transport);
    expect(client.protocolVersion).toBe('2024-11-05');
    expect(peer.protocolVersions).toEqual(['2024-11-05']);
  });

  it('closes with a NegotiationError when the server picks a version the client does not support', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server, { protocolVersion: '1999-01-01' }));
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    const failure = client.connect(peer.transport);
    await expect(failure).rejects.toBeInstanceOf(NegotiationError);
    await expect(failure).rejects.toThrow(/1999-01-01.*does not support/);
    expect(client.transport).toBeUndefined();
    expect(peer.notifications('notifications/initialized')).toEqual([]);
    await expect(client.listTools()).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('a request method of an unconnected client returns a rejected promise; none throws', async () => {
    const client = new Client(CLIENT_INFO);
    const calls: Array<() => Promise<unknown>> = [
      () => client.callTool({ name: 'x' }),
      () => client.ping(),
      () => client.discover(),
      () => client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
      () => client.setLoggingLevel('info'),
      () => client.getPrompt({ name: 'p' }),
      () => client.subscribeResource({ uri: 'x://y' }),
      () => client.unsubscribeResource({ uri: 'x://y' }),
      () => client.request({ method: 'ping' }),
    ];
    for (const call of calls) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    }
    // A JavaScript caller passing no params at all gets a rejection too, not a throw.
    const noParams = (client.callTool as (params?: unknown) => Promise<unknown>)();
    await expect(noParams).rejects.toBeInstanceOf(TypeError);
  });

  it('a pinned version accepts only itself', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server, { protocolVersion: '2025-06-18' }));
    const client = new Client(CLIENT_INFO, { protocolVersion: '2025-03-26' });
    await expect(client.connect(peer.transport)).rejects.toBeInstanceOf(NegotiationError);
    expect(peer.requests('initialize')[0]?.params?.['protocolVersion']).toBe('2025-03-26');
  });

  it('refuses modern-only methods on a legacy connection without touching the wire', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server));
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await client.connect(peer.transport);
    const before = peer.wire.length;
    await expect(client.discover()).rejects.toBeInstanceOf(MethodNotSupportedError);
    const subscription = client.listen({ toolsListChanged: true });
    await expect(subscription.next()).rejects.toThrow(
      /subscriptions\/listen is not available on protocol 2025-11-25/,
    );
    expect(peer.wire.length).toBe(before);
  });

  it('reconnects after close', async () => {
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    for (let i = 0; i < 2; i++) {
      const peer = await fakeServer((server) => legacyHandshake(server));
      await client.connect(peer.transport);
      expect(client.era).toBe('legacy');
      await client.close();
    }
  });
});

describe('legacy handshake after a transport reconnect', () => {
  it('re-runs initialize and holds requests back until notifications/initialized is out', async () => {
    let answerInitialize: (() => void) | undefined;
    let initializeCount = 0;
    const peer = await fakeServer((server) => {
      server.setRequestHandler('initialize', async () => {
        initializeCount++;
        // The second handshake (after the reconnect) answers only when the test says so.
        if (initializeCount === 2) await new Promise<void>((resolve) => (answerInitialize = resolve));
        return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO };
      });
      server.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'ok' }] }));
    });
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await client.connect(peer.transport);
    peer.wire.length = 0;

    (peer.transport as Transport).onreconnect?.(); // what a reconnecting transport calls once its new connection is up
    const call = client.callTool({ name: 'echo', arguments: {} });
    await afterTimeouts();
    // 2025-11-25 lifecycle: "The client SHOULD NOT send requests other than pings before the server has
    // responded to the initialize request."
    expect(peer.wire.map((m) => ('method' in m ? m.method : 'response'))).toEqual(['initialize']);

    answerInitialize?.();
    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(peer.wire.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
  });
});
