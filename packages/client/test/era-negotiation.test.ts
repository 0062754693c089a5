import { ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Client, InMemoryEraCache, NegotiationError } from '../src/index.js';
import {
  CLIENT_INFO,
  fakeServer,
  legacyHandshake,
  modernDiscover,
  NotFoundTransport,
  SERVER_INFO,
} from './helpers.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

describe('era negotiation (auto)', () => {
  it('goes modern when server/discover answers, with the envelope and no handshake', async () => {
    const peer = await fakeServer((server) => modernDiscover(server, { tools: { listChanged: true } }));
    const client = new Client(CLIENT_INFO);
    await client.connect(peer.transport);
    expect(peer.wire).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
    ]);
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverCapabilities).toEqual({ tools: { listChanged: true } });
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.instructions).toBe('be modern');
    expect(peer.protocolVersions).toEqual(['2026-07-28']);
  });

  it('falls back to initialize when server/discover is unknown (-32601)', async () => {
    const peer = await fakeServer((server) => legacyHandshake(server));
    const client = new Client(CLIENT_INFO);
    await client.connect(peer.transport);
    expect(peer.wire.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
  });

  it('falls back when the probe is never answered, or answered with something that is no DiscoverResult', async () => {
    const silent = await fakeServer((server) => {
      legacyHandshake(server);
      server.setRequestHandler('server/discover', () => new Promise<object>(() => {}));
    });
    const client = new Client(CLIENT_INFO, { probeTimeout: 20 });
    await client.connect(silent.transport);
    expect(client.era).toBe('legacy');

    const odd = await fakeServer((server) => {
      legacyHandshake(server);
      server.setRequestHandler('server/discover', () => ({ hello: 'legacy' }));
    });
    const other = new Client(CLIENT_INFO);
    await other.connect(odd.transport);
    expect(other.era).toBe('legacy');
  });

  it('retries discover with a supported version from -32022, and goes legacy when only legacy ones are listed', async () => {
    const peer = await fakeServer((server) => {
      legacyHandshake(server, { protocolVersion: '2025-06-18' });
      server.setRequestHandler('server/discover', () => {
        throw new McpError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
          supported: ['2025-06-18'],
          requested: '2026-07-28',
        });
      });
    });
    const client = new Client(CLIENT_INFO);
    await client.connect(peer.transport);
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(peer.requests('initialize')[0]?.params?.['protocolVersion']).toBe('2025-06-18');
  });

  it('fails clearly when a modern server shares no version', async () => {
    const peer = await fakeServer((server) =>
      server.setRequestHandler('server/discover', () => ({
        supportedVersions: ['2099-01-01'],
        capabilities: {},
      })),
    );
    const client = new Client(CLIENT_INFO);
    await expect(client.connect(peer.transport)).rejects.toBeInstanceOf(NegotiationError);
    expect(client.transport).toBeUndefined();
  });

  it('uses the fallback transport when the first fails at the transport level (HTTP 404)', async () => {
    const first = new NotFoundTransport();
    const peer = await fakeServer((server) => legacyHandshake(server));
    const client = new Client(CLIENT_INFO);
    await client.connect(first, { fallback: () => peer.transport });
    expect(first.sent.map((m) => ('method' in m ? m.method : ''))).toEqual(['server/discover', 'initialize']);
    expect(first.closed).toBe(true);
    // The fallback is the legacy HTTP+SSE path: straight to initialize.
    expect(peer.requests().map((r) => r.method)).toEqual(['initialize']);
    expect(client.era).toBe('legacy');
    expect(client.transport).toBe(peer.transport);
  });

  it('falls back only on the one SSE-fallback rule (400, 404, 405), not on 406, 413, 415 or 429', async () => {
    for (const status of [406, 413, 415, 429]) {
      const client = new Client(CLIENT_INFO);
      let fellBack = false;
      const fallback = () => {
        fellBack = true;
        return new NotFoundTransport();
      };
      await expect(client.connect(new NotFoundTransport(status), { fallback })).rejects.toMatchObject({
        status,
      });
      expect(fellBack, `HTTP ${status}`).toBe(false);
    }
    for (const status of [400, 405]) {
      const peer = await fakeServer((server) => legacyHandshake(server));
      const client = new Client(CLIENT_INFO);
      await client.connect(new NotFoundTransport(status), { fallback: () => peer.transport });
      expect(client.transport, `HTTP ${status}`).toBe(peer.transport);
      await client.close();
    }
  });

  it('rejects a transport-level failure without a fallback', async () => {
    const client = new Client(CLIENT_INFO);
    await expect(client.connect(new NotFoundTransport())).rejects.toMatchObject({ status: 404 });
  });

  it('caches the era per target and skips the probe next time', async () => {
    const eraCache = new InMemoryEraCache();
    const client = new Client(CLIENT_INFO, { eraCache });
    const first = await fakeServer((server) => legacyHandshake(server));
    await client.connect(first.transport, { cacheKey: 'stdio:legacy-server' });
    await client.close();
    expect(eraCache.get('stdio:legacy-server')).toEqual({ era: 'legacy', protocolVersion: '2025-11-25' });

    const second = await fakeServer((server) => legacyHandshake(server));
    await client.connect(second.transport, { cacheKey: 'stdio:legacy-server' });
    expect(second.requests().map((r) => r.method)).toEqual(['initialize']);
    await client.close();

    // The server was upgraded: initialize fails, so the cached assumption is dropped and the probe runs.
    const upgraded = await fakeServer((server) => modernDiscover(server));
    await client.connect(upgraded.transport, { cacheKey: 'stdio:legacy-server' });
    expect(upgraded.requests().map((r) => r.method)).toEqual(['initialize', 'server/discover']);
    expect(client.era).toBe('modern');
    expect(eraCache.get('stdio:legacy-server')).toEqual({ era: 'modern', protocolVersion: '2026-07-28' });
  });

  it('pinned eras do not probe', async () => {
    const legacy = await fakeServer((server) => legacyHandshake(server));
    const a = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    await a.connect(legacy.transport);
    expect(legacy.requests().map((r) => r.method)).toEqual(['initialize']);

    const modern = await fakeServer((server) => legacyHandshake(server));
    const b = new Client(CLIENT_INFO, { protocolVersion: '2026-07-28' });
    await expect(b.connect(modern.transport)).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(modern.requests().map((r) => r.method)).toEqual(['server/discover']);
  });
});
