import { describe, expect, it } from 'vitest';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { initializeRequest, POST_HEADERS, raw, startServer } from './helpers.js';

describe('request checks', () => {
  it('refuses a rebinding Host or a foreign Origin with 403 on loopback by default', async () => {
    await using server = await startServer();
    const host = await raw(server.url, {
      headers: { ...POST_HEADERS, host: `evil.example:${server.port}` },
      body: initializeRequest(),
    });
    expect(host.status).toBe(403);
    expect(host.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const origin = await raw(server.url, {
      headers: { ...POST_HEADERS, origin: 'http://evil.example' },
      body: initializeRequest(),
    });
    expect(origin.status).toBe(403);
    const sameHost = await raw(server.url, {
      headers: { ...POST_HEADERS, origin: `http://localhost:${server.port}` },
      body: initializeRequest(),
    });
    expect(sameHost.status).toBe(200);
  });

  it('checks Origin on a non-loopback bind too: a rebound request with a matching Host is refused', async () => {
    // Issue 24 item 3: on `--host 0.0.0.0` a rebound page sends `Host: evil.example` *and*
    // `Origin: http://evil.example`; "servers MUST validate the Origin header" on every bind.
    const handler = createStreamableHttpHandler({ onsession: () => undefined });
    const lan = { localAddress: '192.168.1.20', remoteAddress: '192.168.1.30' };
    const post = (headers: Record<string, string>) =>
      handler(
        new Request('http://evil.example/mcp', {
          method: 'POST',
          headers: { ...POST_HEADERS, ...headers },
          body: JSON.stringify(initializeRequest()),
        }),
        lan,
      );
    const rebound = await post({ host: 'evil.example', origin: 'http://evil.example' });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { message: expect.stringMatching(/Origin/) } });
    // A non-browser client (no Origin) is served on a LAN address whatever Host it used.
    const noOrigin = await post({ host: '192.168.1.20:3000' });
    expect(noOrigin.status).toBe(200);
    await handler.close();
  });

  it('takes allow-lists for other host names and origins', async () => {
    await using server = await startServer({
      dnsRebindingProtection: {
        allowedHosts: ['mcp.example.com'],
        allowedOrigins: ['https://app.example.com'],
      },
    });
    const ok = await raw(server.url, {
      headers: { ...POST_HEADERS, host: 'mcp.example.com', origin: 'https://app.example.com' },
      body: initializeRequest(),
    });
    expect(ok.status).toBe(200);
    const loopback = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(loopback.status).toBe(403);
  });

  it('can be disabled', async () => {
    await using server = await startServer({ dnsRebindingProtection: false });
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, host: 'anything.example' },
      body: initializeRequest(),
    });
    expect(reply.status).toBe(200);
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    await using server = await startServer({ maxBodyBytes: 1024 });
    const big = { ...initializeRequest(), params: { pad: 'x'.repeat(2048) } };
    const declared = await raw(server.url, { headers: POST_HEADERS, body: big });
    expect(declared.status).toBe(413);
    const chunked = await fetch(server.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('takes the body limit as maxMessageBytes, the deprecated maxBodyBytes still working (the new name wins)', async () => {
    const big = { ...initializeRequest(), params: { pad: 'x'.repeat(2048) } };
    {
      await using server = await startServer({ maxMessageBytes: 1024 });
      const refused = await raw(server.url, { headers: POST_HEADERS, body: big });
      expect(refused.status).toBe(413);
      expect(refused.text).toContain('maxMessageBytes');
    }
    {
      // Both given: maxMessageBytes (large) wins over maxBodyBytes (small), so the body passes the limit.
      await using server = await startServer({ maxMessageBytes: 64 * 1024, maxBodyBytes: 1024 });
      expect((await raw(server.url, { headers: POST_HEADERS, body: big })).status).not.toBe(413);
    }
  });

  it('answers 406 for a wrong Accept and 415 for a wrong Content-Type', async () => {
    await using server = await startServer();
    const accept = await raw(server.url, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: initializeRequest(),
    });
    expect(accept.status).toBe(406);
    const type = await raw(server.url, {
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'text/plain' },
      body: initializeRequest(),
    });
    expect(type.status).toBe(415);
  });

  it('answers 400 with -32700 for a body that is not JSON and -32600 for one that is not JSON-RPC', async () => {
    await using server = await startServer();
    const parse = await raw(server.url, { headers: POST_HEADERS, body: '{not json' });
    expect(parse.status).toBe(400);
    expect(parse.json()).toMatchObject({ error: { code: -32700 } });
    const invalid = await raw(server.url, { headers: POST_HEADERS, body: { hello: 'world' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toMatchObject({ id: null, error: { code: -32600 } });
    // JSON-RPC 2.0 §5: null only "if there was an error in detecting the id" (found by apps/fuzz).
    const badParams = await raw(server.url, {
      headers: POST_HEADERS,
      body: { jsonrpc: '2.0', id: 9, method: 'ping', params: 5 },
    });
    expect(badParams.status).toBe(400);
    expect(badParams.json()).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('answers 405 with Allow for other methods', async () => {
    await using server = await startServer();
    const reply = await raw(server.url, { method: 'PUT', body: '{}' });
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toContain('POST');
  });
});

describe('CORS and auth', () => {
  it('answers preflights and exposes Mcp-Session-Id', async () => {
    await using server = await startServer({
      cors: { origin: ['http://localhost:5173'] },
      dnsRebindingProtection: { allowedOrigins: ['http://localhost:5173'] },
    });
    const preflight = await raw(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id, mcp-param-region',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.headers['access-control-allow-headers']).toContain('mcp-param-region');
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, origin: 'http://localhost:5173' },
      body: initializeRequest(),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
    // The reply's own headers survive CORS adding its headers to them.
    expect(reply.headers['mcp-session-id']).toMatch(/^[\x21-\x7e]+$/);
    expect(reply.headers['content-type']).toMatch(/^(application\/json|text\/event-stream)/);
  });

  it('runs the authenticate hook before the body: a Response is returned as-is, AuthInfo reaches every message', async () => {
    let seen: unknown;
    await using server = await startServer({
      authenticate: (request) =>
        request.headers.get('authorization') === 'Bearer good'
          ? { token: 'good', clientId: 'c1', scopes: ['mcp'] }
          : new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
      handlers: {
        initialize: (_p, ctx) => {
          seen = ctx.extra;
          return { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } };
        },
      },
    });
    const denied = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest() });
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toBe('Bearer');
    const ok = await raw(server.url, {
      headers: { ...POST_HEADERS, authorization: 'Bearer good' },
      body: initializeRequest(),
    });
    expect(ok.status).toBe(200);
    expect(seen).toMatchObject({
      authInfo: { clientId: 'c1' },
      requestInfo: { method: 'POST', headers: { authorization: 'Bearer good' } },
    });
  });
});
