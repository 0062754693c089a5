import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { defer, startServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

// Issue #35, finding 8 (and the one principal rule): the WebSocket listener keys sessionRateLimit by
// principal, else by the client address read through trustedProxies, or by the callerKey option.

/** 'open', or the HTTP status of the refused upgrade, for an upgrade carrying `headers`. */
function upgrade(url: URL, headers: Record<string, string>): Promise<number | 'open'> {
  const socket = new WebSocket(url, ['mcp'], { headers });
  socket.on('error', () => {});
  defer(() => socket.terminate());
  return new Promise((resolve) => {
    socket.once('open', () => resolve('open'));
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
  });
}

const ONE = { perSecond: 0.001, burst: 1 };

describe('WebSocket caller keys', () => {
  it('ignores forwarding headers from a peer that is not a trusted proxy', async () => {
    const server = await startServer({ sessionRateLimit: ONE });
    expect(await upgrade(server.url, { 'x-forwarded-for': '203.0.113.1' })).toBe('open');
    expect(await upgrade(server.url, { 'x-forwarded-for': '203.0.113.2' })).toBe(429);
  });

  it('gives two clients behind a trusted proxy separate buckets', async () => {
    const server = await startServer({ sessionRateLimit: ONE, trustedProxies: ['127.0.0.1', '::1'] });
    expect(await upgrade(server.url, { 'x-forwarded-for': '203.0.113.1' })).toBe('open');
    expect(await upgrade(server.url, { 'x-forwarded-for': '203.0.113.2' })).toBe('open');
    expect(await upgrade(server.url, { 'x-forwarded-for': '203.0.113.1' })).toBe(429);
  });

  it('keys by principal when authenticate names one: two users of one app, two buckets', async () => {
    const server = await startServer({
      sessionRateLimit: ONE,
      authenticate: (request) => ({
        token: 't',
        clientId: 'app',
        scopes: [],
        extra: { sub: request.headers.get('x-user') ?? 'nobody' },
      }),
    });
    expect(await upgrade(server.url, { 'x-user': 'alice' })).toBe('open');
    expect(await upgrade(server.url, { 'x-user': 'bob' })).toBe('open');
    expect(await upgrade(server.url, { 'x-user': 'alice' })).toBe(429);
  });

  it('still limits anonymous callers by address when authenticate lets them in', async () => {
    const server = await startServer({ sessionRateLimit: ONE, authenticate: () => undefined });
    expect(await upgrade(server.url, {})).toBe('open');
    expect(await upgrade(server.url, {})).toBe(429);
  });

  it('reports the resolved client address to handlers as requestInfo.clientAddress', async () => {
    const server = await startServer({ trustedProxies: ['127.0.0.1', '::1'] });
    const socket = new WebSocket(server.url, ['mcp'], { headers: { 'x-forwarded-for': '203.0.113.5' } });
    socket.on('error', () => {});
    defer(() => socket.terminate());
    await new Promise((resolve) => socket.once('open', resolve));
    const transport = await server.next();
    const seen: (string | undefined)[] = [];
    transport.onmessage = (_message, extra) => seen.push(extra?.requestInfo?.clientAddress);
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['203.0.113.5']);
  });

  it('keys by the callerKey option when given', async () => {
    const server = await startServer({
      sessionRateLimit: ONE,
      callerKey: (caller) => `key:${caller.headers.get('x-api-key') ?? ''}`,
    });
    expect(await upgrade(server.url, { 'x-api-key': 'k1' })).toBe('open');
    expect(await upgrade(server.url, { 'x-api-key': 'k2' })).toBe('open');
    expect(await upgrade(server.url, { 'x-api-key': 'k1' })).toBe(429);
  });
});
