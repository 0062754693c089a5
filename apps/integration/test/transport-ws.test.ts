import type { Socket } from 'node:net';
import type { Client } from '@x/client';
import { ConnectionClosedError, ErrorCode, type McpError } from '@x/protocol';
import type { McpServer } from '@x/server';
import { WebSocketClientTransport, type WebSocketClientTransportOptions } from '@x/transport-ws';
import { type WebSocketHandler, listenWebSocket } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createE2eServer,
  e2eClient,
  methodsOf,
  payload,
  Resources,
  recordSends,
  rejectionOf,
  startSilenceableProxy,
  textOf,
} from './fixtures/e2e-helpers.js';
import { waitFor } from '@x/test-kit';

// Issue 7, end-to-end: the real x-mcp Client and McpServer over WebSocket (subprotocol `mcp`) on
// 127.0.0.1: both eras, big results, many calls in flight, and a peer that dies or goes silent.

const resources = new Resources();
afterEach(() => resources.closeAll());

interface Hosted {
  listener: WebSocketHandler;
  url: URL;
  /** The server side's TCP socket of every accepted connection, in order. */
  sockets: Socket[];
}

async function host(server: McpServer, options: { keepAliveMs?: number } = {}): Promise<Hosted> {
  const sockets: Socket[] = [];
  const listener = await listenWebSocket({
    port: 0,
    ...options,
    onsession: (transport, { request }) => {
      sockets.push(request.socket as Socket);
      return server.connect(transport);
    },
  });
  resources.track(listener);
  const url = listener.url;
  if (url === undefined) throw new Error('the listener has no address');
  return { listener, url, sockets };
}

async function connect(
  url: URL,
  client: Client = e2eClient(),
  options: WebSocketClientTransportOptions = {},
): Promise<{ client: Client; transport: WebSocketClientTransport; closes: () => number }> {
  const transport = new WebSocketClientTransport(url, options);
  let closes = 0;
  client.onclose = () => closes++;
  resources.track(client);
  await client.connect(transport);
  return { client, transport, closes: () => closes };
}

describe('WebSocket end to end (issue 7)', () => {
  it.each([
    {
      selection: 'legacy',
      era: 'legacy',
      version: '2025-11-25',
      handshake: ['initialize', 'notifications/initialized'],
    },
    { selection: 'auto', era: 'modern', version: '2026-07-28', handshake: ['server/discover'] },
  ] as const)(
    '$selection client: $era era, a tool call, and the server session ends with the socket',
    async ({ selection, era, version, handshake }) => {
      const server = createE2eServer();
      const hosted = await host(server);
      const { transport, sent } = recordSends(new WebSocketClientTransport(hosted.url));
      const client = resources.track(e2eClient({ protocolVersion: selection }));
      await client.connect(transport);

      expect([client.era, client.protocolVersion]).toEqual([era, version]);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'ws' } }))).toBe('ws');
      expect(methodsOf(sent)).toEqual([...handshake, 'tools/call']);
      expect(server.sessions.size).toBe(1);
      await client.close();
      await waitFor(() => server.sessions.size === 0 && hosted.listener.sessions.size === 0, {
        what: 'server cleanup',
      });
    },
  );

  it('carries a 1 MiB tool result intact', async () => {
    const hosted = await host(createE2eServer());
    const { client } = await connect(hosted.url);
    const length = 1024 * 1024;
    const received = textOf(await client.callTool({ name: 'blob', arguments: { length } }));
    expect(received.length).toBe(length);
    expect(received === payload(length)).toBe(true);
  });

  it('answers 1,000 concurrent calls, each with its own result', async () => {
    const hosted = await host(createE2eServer());
    const { client } = await connect(hosted.url, e2eClient({ protocolVersion: 'legacy' }));
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        client.callTool({ name: 'echo', arguments: { text: `ws-${i}` } }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 1_000 }, (_, i) => `ws-${i}`));
  });

  it('peer socket destroyed: the client closes at once and the pending call rejects', async () => {
    let started = 0;
    const server = createE2eServer({ onWaitStarted: () => started++ });
    const hosted = await host(server);
    const { client, closes } = await connect(hosted.url);
    const pending = client.callTool({ name: 'wait', arguments: {} });
    await waitFor(() => started === 1, { what: 'the call to reach the server' });

    hosted.sockets[0]!.destroy();
    const error = await rejectionOf(pending);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
    await waitFor(() => closes() === 1, { what: 'client onclose' });
    await waitFor(() => server.sessions.size === 0, { what: 'the server session to end' });
    expect(closes()).toBe(1);
  });

  it('peer goes silent (no FIN, no RST): both heartbeats notice within their window', async () => {
    const heartbeatIntervalMs = 100;
    let started = 0;
    const server = createE2eServer({ onWaitStarted: () => started++ });
    const hosted = await host(server, { keepAliveMs: heartbeatIntervalMs });
    const proxy = resources.track(
      await startSilenceableProxy({ host: '127.0.0.1', port: Number(hosted.url.port) }),
    );
    const { client, closes } = await connect(new URL(`ws://127.0.0.1:${proxy.port}/`), e2eClient(), {
      keepAliveMs: heartbeatIntervalMs,
    });
    const pending = client.callTool({ name: 'wait', arguments: {} });
    void pending.catch(() => {});
    await waitFor(() => started === 1, { what: 'the call to reach the server' });

    proxy.silence();
    const silencedAt = Date.now();
    await waitFor(() => closes() === 1, { what: 'client onclose from its heartbeat', timeoutMs: 5_000 });
    const detectedAfter = Date.now() - silencedAt;
    const error = await rejectionOf(pending);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    // Dropped after one unanswered ping: within one to two intervals (slack for a loaded CI machine;
    // without the heartbeat it would never be noticed, and the default interval is 30 s).
    expect(detectedAfter).toBeGreaterThanOrEqual(heartbeatIntervalMs / 2);
    expect(detectedAfter).toBeLessThan(heartbeatIntervalMs * 20);
    // The server never saw a FIN either: its own heartbeat drops the connection and the session.
    await waitFor(() => server.sessions.size === 0, { what: 'the server heartbeat to drop the session' });
    expect(hosted.listener.sessions.size).toBe(0);
  });
});

describe('WebSocket reconnect (issue 7)', () => {
  it('re-runs the legacy handshake after the transport reconnects, so the next call just works', async () => {
    const server = createE2eServer();
    const hosted = await host(server);
    const { client, transport } = await connect(hosted.url, e2eClient({ protocolVersion: 'legacy' }), {
      reconnect: { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 20 },
    });
    let reconnects = 0;
    const previous = transport.onreconnect;
    transport.onreconnect = () => {
      reconnects++;
      return previous?.();
    };
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');

    // The server side drops the connection; the new one reaches a server session that never saw initialize.
    hosted.sockets[0]!.destroy();
    await waitFor(() => reconnects === 1 && hosted.sockets.length === 2, {
      what: 'the transport to reconnect',
    });
    await waitFor(() => server.sessions.size === 1, { what: 'the old server session to end' });
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect(client.era).toBe('legacy');
  });
});
