import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LISTEN_STREAMS } from '../src/index.js';
import { initializeRequest, POST_HEADERS, raw, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

/** Issue #35, findings 8 and 14 and the listen-stream cap, over real HTTP on 127.0.0.1. */

const M = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': M,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One token, then 429 for a long time: the second request of a bucket is refused. */
const ONE_PER_CALLER = { perSecond: 0.001, burst: 1 };

describe('caller keys behind proxies (finding 8)', () => {
  it('ignores X-Forwarded-For and Forwarded from a peer that is not a trusted proxy', async () => {
    await using server = await startServer({ sessionRateLimit: ONE_PER_CALLER });
    const post = (headers: Record<string, string>) =>
      raw(server.url, { headers: { ...POST_HEADERS, ...headers }, body: initializeRequest() });
    expect((await post({ 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    // A forged header does not buy a fresh bucket.
    expect((await post({ 'x-forwarded-for': '203.0.113.2' })).status).toBe(429);
    expect((await post({ forwarded: 'for=203.0.113.3' })).status).toBe(429);
  });

  it('gives two clients behind one trusted proxy separate buckets', async () => {
    await using server = await startServer({
      sessionRateLimit: ONE_PER_CALLER,
      trustedProxies: ['127.0.0.1'],
    });
    const post = (client: string) =>
      raw(server.url, {
        headers: { ...POST_HEADERS, 'x-forwarded-for': `${client}, 127.0.0.1` },
        body: initializeRequest(),
      });
    expect((await post('203.0.113.1')).status).toBe(200);
    expect((await post('203.0.113.2')).status).toBe(200);
    const refused = await post('203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ error: { message: expect.stringContaining('sessionRateLimit') } });
    // A header the proxy chain cannot vouch for falls back to the proxy's own bucket.
    expect((await post('not-an-address')).status).toBe(200);
    expect((await post('still-not-one')).status).toBe(429);
  });

  it('reads RFC 7239 Forwarded when the trusted proxies write it', async () => {
    await using server = await startServer({
      sessionRateLimit: ONE_PER_CALLER,
      trustedProxies: { addresses: ['127.0.0.0/8', '::1'], header: 'forwarded' },
    });
    const post = (headers: Record<string, string>) =>
      raw(server.url, { headers: { ...POST_HEADERS, ...headers }, body: initializeRequest() });
    expect((await post({ forwarded: 'for="[2001:db8::7]:5000";proto=https' })).status).toBe(200);
    expect((await post({ forwarded: 'for=203.0.113.9' })).status).toBe(200);
    expect((await post({ forwarded: 'for="[2001:db8:0::7]"' })).status).toBe(429);
  });

  it('keys by the callerKey option when given', async () => {
    const seen: { clientAddress: string | undefined; peerAddress: string | undefined }[] = [];
    await using server = await startServer({
      sessionRateLimit: ONE_PER_CALLER,
      trustedProxies: ['127.0.0.1'],
      callerKey: (caller) => {
        seen.push({ clientAddress: caller.clientAddress, peerAddress: caller.peerAddress });
        return `tenant:${caller.headers.get('x-tenant') ?? 'none'}`;
      },
    });
    const post = (tenant: string, client: string) =>
      raw(server.url, {
        headers: { ...POST_HEADERS, 'x-tenant': tenant, 'x-forwarded-for': client },
        body: initializeRequest(),
      });
    expect((await post('a', '203.0.113.1')).status).toBe(200);
    expect((await post('b', '203.0.113.1')).status).toBe(200);
    expect((await post('a', '203.0.113.2')).status).toBe(429);
    expect(seen[0]).toEqual({ clientAddress: '203.0.113.1', peerAddress: '127.0.0.1' });
  });

  it('refuses a trustedProxies entry that is not an address', async () => {
    await expect(startServer({ trustedProxies: ['proxy.internal'] })).rejects.toThrow(/trustedProxies/);
  });
});

describe('subscriptions/listen streams are capped per process', () => {
  const listen = (url: string, id: number, signal?: AbortSignal) =>
    fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      } satisfies JSONRPCMessage),
      ...(signal === undefined ? {} : { signal }),
    });

  it('refuses the stream past maxListenStreams with 503, Retry-After and a JSON-RPC error naming it', async () => {
    expect(DEFAULT_MAX_LISTEN_STREAMS).toBe(10_000);
    await using server = await startServer({
      maxListenStreams: 2,
      handlers: { 'subscriptions/listen': () => new Promise(() => {}), ping: () => ({}) },
    });
    const first = new AbortController();
    const open = [await listen(server.url, 1, first.signal), await listen(server.url, 2)];
    for (const response of open) expect(response.headers.get('content-type')).toBe('text/event-stream');
    const refused = await listen(server.url, 3);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      id: 3,
      error: {
        message: expect.stringContaining('maxListenStreams (2)'),
        data: { limit: 'maxListenStreams' },
      },
    });
    // Other modern requests are not listen streams and still pass.
    const ping = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-protocol-version': M, 'mcp-method': 'ping' },
      body: { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: META } },
    });
    expect(ping.status).toBe(200);
    // A stream that ends frees its place.
    first.abort();
    const again = await waitFor(
      async () => {
        const response = await listen(server.url, 5);
        if (response.status === 200) return response;
        await response.body?.cancel();
        return undefined;
      },
      { what: 'a listen stream to be accepted once one closed', intervalMs: 20, timeoutMs: 20_000 },
    );
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    for (const response of [...open.slice(1), again]) await response.body?.cancel();
  });
});
