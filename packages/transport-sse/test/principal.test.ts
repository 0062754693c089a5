import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import type { SseServerTransport } from '../src/index.js';
import { openRawStream, rawRequest, startSseServer, useCleanup } from './helpers.js';
import { waitFor } from '@x/test-kit';

// Issue #35, findings 3 and 8: legacy SSE binds a session to the principal (client and user), keys its
// rate limit by it, and reads forwarding headers only from trusted proxies.

const addCleanup = useCleanup();

/** Tokens of one OAuth app acting for two users, and of another app. */
const TOKENS: Record<string, { clientId: string; sub?: string }> = {
  alice: { clientId: 'app', sub: 'alice' },
  bob: { clientId: 'app', sub: 'bob' },
  robot: { clientId: 'app' },
};

function authenticate(request: Request) {
  const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
  const user = Object.hasOwn(TOKENS, token) ? TOKENS[token] : undefined;
  if (user === undefined) return undefined;
  return {
    token,
    clientId: user.clientId,
    scopes: [],
    extra: user.sub === undefined ? {} : { sub: user.sub },
  };
}

async function openStream(port: number, headers: Record<string, string> = {}) {
  const stream = await openRawStream({ port, path: '/sse', headers });
  addCleanup(() => stream.destroy());
  return stream;
}

function post(port: number, path: string, headers: Record<string, string> = {}) {
  return rawRequest({
    port,
    method: 'POST',
    path,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('SSE sessions belong to a principal, not to the OAuth client', () => {
  it('refuses a POST of another user of the same app (403); the owner gets through', async () => {
    const harness = await startSseServer(addCleanup, { authenticate });
    const stream = await openStream(harness.port, { authorization: 'Bearer alice' });
    const endpoint = await stream.endpoint();
    const received: JSONRPCMessage[] = [];
    await waitFor(() => harness.sessions.length === 1);
    (harness.sessions[0] as SseServerTransport).onmessage = (message) => received.push(message);

    for (const intruder of ['Bearer bob', 'Bearer robot', undefined]) {
      const refused = await post(
        harness.port,
        endpoint,
        intruder === undefined ? {} : { authorization: intruder },
      );
      expect(refused.status, intruder).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({
        error: { code: -32600, message: 'Session belongs to another principal' },
      });
    }
    expect((await post(harness.port, endpoint, { authorization: 'Bearer alice' })).status).toBe(202);
    await waitFor(() => received.length === 1);
    expect(received).toHaveLength(1);
  });

  it('serves an anonymous session to anonymous callers only', async () => {
    const harness = await startSseServer(addCleanup, { authenticate });
    const stream = await openStream(harness.port);
    const endpoint = await stream.endpoint();
    expect((await post(harness.port, endpoint, { authorization: 'Bearer alice' })).status).toBe(403);
    expect((await post(harness.port, endpoint)).status).toBe(202);
  });

  it("keys sessionRateLimit by principal: one user's streams do not lock out another user of the app", async () => {
    const harness = await startSseServer(addCleanup, {
      authenticate,
      sessionRateLimit: { perSecond: 0.001, burst: 1 },
    });
    expect((await openStream(harness.port, { authorization: 'Bearer alice' })).status).toBe(200);
    expect((await openStream(harness.port, { authorization: 'Bearer bob' })).status).toBe(200);
    const again = await rawRequest({
      port: harness.port,
      method: 'GET',
      path: '/sse',
      headers: { authorization: 'Bearer alice' },
    });
    expect(again.status).toBe(429);
    expect(again.body).toContain('sessionRateLimit');
  });
});

describe('SSE caller keys behind proxies', () => {
  const ONE = { perSecond: 0.001, burst: 1 };
  const get = (port: number, headers: Record<string, string>) =>
    rawRequest({ port, method: 'GET', path: '/sse', headers });

  it('ignores forwarding headers from an untrusted peer', async () => {
    const harness = await startSseServer(addCleanup, { sessionRateLimit: ONE });
    expect((await openStream(harness.port, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expect((await get(harness.port, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(429);
  });

  it('gives two clients behind a trusted proxy separate buckets', async () => {
    const harness = await startSseServer(addCleanup, {
      sessionRateLimit: ONE,
      trustedProxies: ['127.0.0.0/8'],
    });
    expect((await openStream(harness.port, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expect((await openStream(harness.port, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
    expect((await get(harness.port, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(429);
  });

  it('reports the resolved client address to handlers as requestInfo.clientAddress', async () => {
    const seen: (string | undefined)[] = [];
    const harness = await startSseServer(addCleanup, { trustedProxies: ['127.0.0.1'] }, (transport) => {
      transport.onmessage = (_message, extra) => seen.push(extra?.requestInfo?.clientAddress);
    });
    const stream = await openStream(harness.port, { 'x-forwarded-for': '203.0.113.5' });
    const endpoint = await stream.endpoint();
    expect((await post(harness.port, endpoint, { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' })).status).toBe(
      202,
    );
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['203.0.113.9']);
  });

  it('keys by the callerKey option when given', async () => {
    const harness = await startSseServer(addCleanup, {
      sessionRateLimit: ONE,
      callerKey: (caller) => `key:${caller.headers.get('x-api-key') ?? ''}`,
    });
    expect((await openStream(harness.port, { 'x-api-key': 'k1' })).status).toBe(200);
    expect((await openStream(harness.port, { 'x-api-key': 'k2' })).status).toBe(200);
    expect((await get(harness.port, { 'x-api-key': 'k1' })).status).toBe(429);
  });
});
