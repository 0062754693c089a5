import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocketClientTransport, WebSocketHandshakeError } from '../src/index.js';
import { listenWebSocket, createWebSocketHandler } from '../src/node.js';
import { defer, plainHttpServer, startServer, upgradeStatus } from './helpers.js';
import { waitFor } from '@x/test-kit';

describe('upgrade checks', () => {
  it('refuses an upgrade that does not offer the mcp subprotocol (HTTP 400)', async () => {
    const server = await startServer();
    expect(await upgradeStatus(server.url, { protocols: [] })).toBe(400);
    expect(await upgradeStatus(server.url, { protocols: ['graphql-ws'] })).toBe(400);
    expect(await upgradeStatus(server.url, { protocols: ['graphql-ws', 'mcp'] })).toBe('open');
    await waitFor(() => server.transports.length === 1);
  });

  it('refuses a cross-origin browser on loopback with HTTP 403, by default', async () => {
    const server = await startServer();
    expect(await upgradeStatus(server.url, { origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(server.url, { origin: 'null' })).toBe(403);
    expect(await upgradeStatus(server.url, { origin: 'http://localhost:5173' })).toBe('open');
    expect(await upgradeStatus(server.url, { origin: 'http://127.0.0.1:3000' })).toBe('open');
    expect(await upgradeStatus(server.url)).toBe('open');
  });

  it('applies an allowedOrigins list exactly', async () => {
    const server = await startServer({
      dnsRebindingProtection: { allowedOrigins: ['https://app.example.com'] },
    });
    expect(await upgradeStatus(server.url, { origin: 'https://APP.example.com' })).toBe('open');
    expect(await upgradeStatus(server.url, { origin: 'http://localhost:5173' })).toBe(403);
    expect(await upgradeStatus(server.url, { origin: 'https://app.example.com:8443' })).toBe(403);
  });

  it('surfaces a refused upgrade to our client as WebSocketHandshakeError with the status', async () => {
    const server = await startServer({ dnsRebindingProtection: { allowedOrigins: [] } });
    const client = new WebSocketClientTransport(server.url, {
      keepAliveMs: 0,
      ws: { origin: 'http://x.example' },
    });
    defer(() => client.close());
    const error = await client.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebSocketHandshakeError);
    expect(error).toMatchObject({ status: 403 });
  });

  it('gives up on a server that never answers the upgrade after handshakeTimeoutMs (status 0)', async () => {
    // Accepts the TCP connection and stays silent.
    const accepted: Socket[] = [];
    const silent = createNetServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    defer(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of accepted) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as AddressInfo;
    const client = new WebSocketClientTransport(`ws://127.0.0.1:${port}/`, {
      keepAliveMs: 0,
      handshakeTimeoutMs: 100,
    });
    defer(() => client.close());
    const error = await client.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebSocketHandshakeError);
    expect(error).toMatchObject({ status: 0, message: expect.stringMatching(/timed out after 100 ms/) });
  });

  it('attaches to an existing HTTP server on a path, leaving other paths and plain HTTP alone', async () => {
    const http = await plainHttpServer();
    const accepted: string[] = [];
    const listener = createWebSocketHandler({
      server: http,
      path: '/mcp',
      keepAliveMs: 0,
      onsession: async (transport, { request, clientAddress, authInfo }) => {
        // The SessionContext every server hands over (issue #36): the caller's address, no auth here.
        accepted.push(`${request.url ?? ''} ${clientAddress} ${authInfo === undefined}`);
        await transport.start();
      },
    });
    defer(() => listener.close());
    const url = listener.url;
    if (url === undefined) throw new Error('no url');
    expect(url.pathname).toBe('/mcp');

    expect(await upgradeStatus(new URL('/other', url))).toBe(404);
    expect(await upgradeStatus(new URL('/mcp?x=1', url))).toBe('open');
    const response = await fetch(`http://127.0.0.1:${url.port}/mcp`);
    expect(await response.text()).toBe('plain http');
    await waitFor(() => accepted.length === 1);
    expect(accepted).toEqual(['/mcp?x=1 127.0.0.1 true']);
  });

  it('closes every connection with 1001 on listener.close() and refuses new ones', async () => {
    const server = await startServer();
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0 });
    defer(() => client.close());
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.start();
    await server.next();
    await server.listener.close();
    await waitFor(() => closed);
    expect(server.listener.sessions.size).toBe(0);
  });

  it('closes a connection whose onconnection handler fails (1011) and reports it', async () => {
    const errors: Error[] = [];
    const listener = await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      onerror: (error) => errors.push(error),
      onsession: async () => {
        throw new Error('boom');
      },
    });
    defer(() => listener.close());
    const client = new WebSocketClientTransport(listener.url!, { keepAliveMs: 0 });
    defer(() => client.close());
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.start();
    await waitFor(() => closed && errors.length === 1);
    expect(errors[0]?.message).toBe('boom');
  });
});

describe('the shared DNS-rebinding policy (createDnsRebindingGuard)', () => {
  it.each([
    ['http://evil.example', false],
    ['null', false],
    ['http://app.localhost:3000', false],
    ['http://localhost.evil.example', false],
    ['http://localhost:5173', true],
    ['https://127.0.0.1', true],
    ['http://[::1]:8080', true],
  ] as const)('Origin %s on a loopback listener → open: %s', async (origin, open) => {
    const server = await startServer();
    expect(await upgradeStatus(server.url, { origin })).toBe(open ? 'open' : 403);
  });

  it("accepts '*' (any origin) and the dnsRebindingProtection object; false turns the check off", async () => {
    const any = await startServer({ dnsRebindingProtection: { allowedOrigins: ['*'] } });
    expect(await upgradeStatus(any.url, { origin: 'http://anything.example' })).toBe('open');
    const off = await startServer({ dnsRebindingProtection: false });
    expect(await upgradeStatus(off.url, { origin: 'http://anything.example' })).toBe('open');
  });
});
