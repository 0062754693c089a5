import { ConnectionClosedError, ErrorCode, type JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CloseCode, WebSocketClientTransport, WebSocketHandshakeError } from '../src/index.js';
import { createWebSocketHandler } from '../src/node.js';
import { defer, rawClient, request, plainHttpServer, startServer, upgradeStatus } from './helpers.js';
import { waitFor } from '@x/test-kit';

// Issue #24 "Hardening", the WebSocket parts: the shared Origin policy, a connection cap and rate limit,
// nesting depth, and errors that name the peer and the close code.

/** Status and body of a refused upgrade, via a bare client. */
function refusal(
  url: URL,
  origin?: string,
): Promise<{ status: number; body: string; retryAfter: string | undefined }> {
  const socket = new WebSocket(url, ['mcp'], origin === undefined ? {} : { origin });
  socket.on('error', () => {});
  defer(() => socket.terminate());
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          retryAfter: response.headers['retry-after'],
        }),
      );
    });
  });
}

describe('Origin policy on a non-loopback address', () => {
  /** A listener whose connections look as if they arrived on a LAN address (the server bound 0.0.0.0). */
  async function lanListener(options: { allowedOrigins?: string[] } = {}) {
    const http = await plainHttpServer();
    const listener = createWebSocketHandler({
      keepAliveMs: 0,
      ...(options.allowedOrigins === undefined
        ? {}
        : { dnsRebindingProtection: { allowedOrigins: options.allowedOrigins } }),
      onsession: (transport) => transport.start(),
    });
    defer(() => listener.close());
    http.on('upgrade', (req, socket, head) => {
      Object.defineProperty(req.socket, 'localAddress', { value: '192.168.1.5', configurable: true });
      listener.handleUpgrade(req, socket, head);
    });
    const { port } = http.address() as { port: number };
    return new URL(`ws://127.0.0.1:${port}/`);
  }

  it('refuses a rebound browser (attacker Origin) with 403 and a JSON-RPC body naming the Origin', async () => {
    const url = await lanListener();
    const refused = await refusal(url, 'http://evil.example');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: ErrorCode.InvalidRequest,
        message: expect.stringMatching(/Invalid Origin header: http:\/\/evil\.example/),
      },
    });
  });

  it('serves non-browser clients, loopback pages and configured origins; nothing else', async () => {
    const url = await lanListener();
    expect(await upgradeStatus(url)).toBe('open');
    expect(await upgradeStatus(url, { origin: 'http://localhost:5173' })).toBe('open');
    const configured = await lanListener({ allowedOrigins: ['https://app.example.com'] });
    expect(await upgradeStatus(configured, { origin: 'https://app.example.com' })).toBe('open');
    expect(await upgradeStatus(configured, { origin: 'https://other.example.com' })).toBe(403);
  });
});

describe('connection limits', () => {
  it('refuses upgrades past maxSessions with 503 and Retry-After, naming the option; evicts nobody', async () => {
    const server = await startServer({ maxSessions: 2 });
    const first = rawClient(server.url);
    const second = rawClient(server.url);
    await first.opened;
    await second.opened;
    await waitFor(() => server.listener.sessions.size === 2);
    const refused = await refusal(server.url);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body).error.message).toMatch(/maxSessions \(2\)/);
    // Our client says who refused and why.
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0 });
    defer(() => client.close());
    const error = await client.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebSocketHandshakeError);
    expect((error as Error).message).toBe(
      `WebSocket upgrade to ${server.url.href} refused with HTTP 503: Too many open WebSocket connections: maxSessions (2) reached; retry later`,
    );
    expect(server.listener.sessions.size).toBe(2);
    first.socket.close();
    await waitFor(() => server.listener.sessions.size === 1);
    expect(await upgradeStatus(server.url)).toBe('open');
  });

  it('limits how fast one address opens connections (429, Retry-After, naming sessionRateLimit)', async () => {
    const server = await startServer({ sessionRateLimit: { perSecond: 0.001, burst: 2 } });
    expect(await upgradeStatus(server.url)).toBe('open');
    expect(await upgradeStatus(server.url)).toBe('open');
    const refused = await refusal(server.url);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.body).error.message).toMatch(/sessionRateLimit/);
  });
});

describe('nesting depth', () => {
  it('answers a frame nested deeper than maxNestingDepth with -32700 naming the limit (server)', async () => {
    const server = await startServer({ maxNestingDepth: 4 });
    const { socket, opened } = rawClient(server.url);
    await opened;
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    socket.send(JSON.stringify(request(1, { a: { b: { c: { d: 1 } } } })));
    socket.send(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    await waitFor(() => replies.length === 2);
    expect(replies[0]).toMatchObject({
      error: { code: ErrorCode.ParseError, message: expect.stringMatching(/maxNestingDepth \(4\)/) },
    });
    expect(replies[1]).toMatchObject({ error: { code: ErrorCode.ParseError } });
  });

  it('passes maxNestingDepth through on the client', async () => {
    const server = await startServer();
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0, maxNestingDepth: 3 });
    const errors: Error[] = [];
    const received: JSONRPCMessage[] = [];
    client.onerror = (error) => errors.push(error);
    client.onmessage = (message) => received.push(message);
    defer(() => client.close());
    await client.start();
    await client.send(request(1, { a: { b: { c: 1 } } }));
    await waitFor(() => errors.length === 1);
    expect(errors[0]).toMatchObject({
      code: ErrorCode.ParseError,
      message: expect.stringMatching(/maxNestingDepth \(3\)/),
    });
    expect(received).toEqual([]);
  });
});

describe('errors name the peer, what happened and the close code', () => {
  it('reports a drop with the URL, close code and reason (onerror, closeReason, later sends)', async () => {
    const server = await startServer({ echo: false });
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0 });
    const errors: Error[] = [];
    let closed = false;
    client.onerror = (error) => errors.push(error);
    client.onclose = () => {
      closed = true;
    };
    defer(() => client.close());
    await client.start();
    await client.send(request('pending'));
    const serverSide = await server.next();
    await waitFor(() => server.received[0]?.length === 1);
    await serverSide.closeWith(CloseCode.InternalError, 'database unavailable');
    await waitFor(() => closed);
    const what = `WebSocket connection to ${server.url.href} closed: code 1011 (internal error), reason "database unavailable"`;
    expect(errors.map((error) => error.message)).toEqual([what]);
    // The engine rejects the pending requests with closeReason (Transport.closeReason).
    expect(client.closeReason).toBeInstanceOf(ConnectionClosedError);
    expect(client.closeReason?.message).toBe(what);
    await expect(client.send(request('late'))).rejects.toThrow(what);
  });

  it('answers in-flight requests with the URL and close code while reconnecting', async () => {
    const server = await startServer({ echo: false });
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      reconnect: { initialDelayMs: 10_000 },
    });
    const received: JSONRPCMessage[] = [];
    client.onmessage = (message) => received.push(message);
    defer(() => client.close());
    await client.start();
    await client.send(request('pending'));
    const serverSide = await server.next();
    await waitFor(() => server.received[0]?.length === 1);
    await serverSide.closeWith(CloseCode.GoingAway, 'restarting');
    await waitFor(() => received.length === 1);
    expect(received[0]).toMatchObject({
      id: 'pending',
      error: {
        code: ErrorCode.ConnectionClosed,
        message: `WebSocket connection to ${server.url.href} closed: code 1001 (going away), reason "restarting"; the response never arrived (the request may have run)`,
        data: { code: 1001, reason: 'restarting' },
      },
    });
  });

  it('says why an upgrade was refused (URL, status and the server reason)', async () => {
    const server = await startServer();
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      ws: { origin: 'http://evil.example' },
    });
    defer(() => client.close());
    const error = await client.start().catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 403,
      message: `WebSocket upgrade to ${server.url.href} refused with HTTP 403: Invalid Origin header: http://evil.example (not in allowedOrigins)`,
    });
  });
});

describe('wire names are data', () => {
  it('delivers methods, ids and keys named constructor, toString, __proto__ untouched', async () => {
    const server = await startServer();
    const { socket, opened } = rawClient(server.url);
    await opened;
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    for (const name of names) {
      socket.send(
        `{"jsonrpc":"2.0","id":"${name}","method":"${name}","params":{"__proto__":{"polluted":true}}}`,
      );
    }
    await waitFor(() => replies.length === names.length);
    const serverSide = await server.next();
    expect(server.received[0]?.map((message) => ('method' in message ? message.method : undefined))).toEqual(
      names,
    );
    expect(replies.map((reply) => (reply as { id: unknown }).id)).toEqual(names);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(serverSide.sessionId).toBeDefined();
  });
});
