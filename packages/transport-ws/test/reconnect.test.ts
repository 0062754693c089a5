import type { Socket } from 'node:net';
import { type JSONRPCMessage, McpError, type ReconnectOptions, TransportLostError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocketClientTransport } from '../src/index.js';
import { createWebSocketHandler, listenWebSocket, type WebSocketServerTransport } from '../src/node.js';
import { defer, request, plainHttpServer } from './helpers.js';
import { waitFor } from '@x/test-kit';

const fast = { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 100 };

/** A listener on an HTTP server whose upgraded sockets the test can destroy abruptly. */
async function droppableServer(options: { echo: boolean }) {
  const http = await plainHttpServer();
  const sockets: Socket[] = [];
  const transports: WebSocketServerTransport[] = [];
  const received: JSONRPCMessage[] = [];
  http.on('upgrade', (_request, socket) => sockets.push(socket as Socket));
  const listener = createWebSocketHandler({
    server: http,
    keepAliveMs: 0,
    onsession: async (transport) => {
      transports.push(transport);
      transport.onmessage = (message) => {
        received.push(message);
        if (options.echo && 'id' in message && 'method' in message) {
          transport.send({ jsonrpc: '2.0', id: message.id, result: {} }).catch(() => {});
        }
      };
      await transport.start();
    },
  });
  defer(() => listener.close());
  return { listener, sockets, transports, received, url: listener.url! };
}

function trackedClient(url: URL, reconnect: ReconnectOptions | boolean) {
  const client = new WebSocketClientTransport(url, { keepAliveMs: 0, reconnect });
  defer(() => client.close());
  const events = { closes: 0, reconnects: 0, errors: [] as Error[], messages: [] as JSONRPCMessage[] };
  client.onclose = () => events.closes++;
  client.onreconnect = () => {
    events.reconnects++;
  };
  client.onerror = (error) => events.errors.push(error);
  client.onmessage = (message) => events.messages.push(message);
  return { client, events };
}

describe('client auto-reconnect', () => {
  it('keeps the same transport across a drop: no onclose, in-flight requests failed, onreconnect, then works', async () => {
    const server = await droppableServer({ echo: false });
    const { client, events } = trackedClient(server.url, fast);
    await client.start();
    await client.send(request('in-flight'));
    await waitFor(() => server.received.length === 1);

    server.sockets[0]?.destroy();
    await waitFor(() => events.messages.length === 1, { timeoutMs: 2_000, what: 'synthesized error' });
    expect(events.messages[0]).toEqual({
      jsonrpc: '2.0',
      id: 'in-flight',
      error: {
        code: -32000,
        message: `WebSocket connection to ${server.url.href} closed: code 1006 (abnormal closure: no close frame); the response never arrived (the request may have run)`,
        data: { code: 1006, reason: '' },
      },
    });
    // The engine rejects the request with the transport's TransportLostError, not a rebuilt -32000.
    const lost = McpError.fromError(
      (events.messages[0] as { error: { code: number; message: string } }).error,
    );
    expect(lost).toBeInstanceOf(TransportLostError);
    expect((lost as TransportLostError).transport).toBe('websocket');
    if (!client.connected) {
      await expect(client.send(request('during'))).rejects.toMatchObject({
        message: 'WebSocket is reconnecting',
      });
    }

    await waitFor(() => events.reconnects === 1, { timeoutMs: 5_000, what: 'onreconnect' });
    expect(events.closes).toBe(0);
    expect(client.connected).toBe(true);
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await waitFor(() => server.transports.length === 2 && server.received.length === 2);
    expect(server.received[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });

  it('survives a server restart on the same port (close 1001) and answers requests again', async () => {
    const first = await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      onsession: (t) => t.start(),
    });
    defer(() => first.close());
    const port = first.address!.port;
    const { client, events } = trackedClient(first.url!, fast);
    await client.start();
    await first.close();

    const restarted = await listenWebSocket({
      port,
      keepAliveMs: 0,
      onsession: async (transport) => {
        transport.onmessage = (message) => {
          if ('method' in message && 'id' in message) {
            transport.send({ jsonrpc: '2.0', id: message.id, result: { again: true } }).catch(() => {});
          }
        };
        await transport.start();
      },
    });
    defer(() => restarted.close());
    await waitFor(() => events.reconnects === 1, { timeoutMs: 5_000, what: 'onreconnect' });
    await client.send(request(2));
    await waitFor(() => events.messages.length === 1);
    expect(events.messages[0]).toEqual({ jsonrpc: '2.0', id: 2, result: { again: true } });
    expect(events.closes).toBe(0);
  });

  it('gives up after maxAttempts: onerror then onclose, exactly once', async () => {
    const listener = await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      onsession: (t) => t.start(),
    });
    defer(() => listener.close());
    const { client, events } = trackedClient(listener.url!, {
      initialDelayMs: 5,
      maxDelayMs: 10,
      maxAttempts: 2,
    });
    await client.start();
    // The listener owns its HTTP server: after close() nothing listens on the port.
    await listener.close();
    await waitFor(() => events.closes === 1, { timeoutMs: 5_000, what: 'onclose after giving up' });
    expect(events.reconnects).toBe(0);
    expect(events.errors.at(-1)).toMatchObject({ name: 'ConnectionClosedError' });
    expect(client.connected).toBe(false);
  });

  it('refuses to retry a 4xx upgrade refusal and gives up at once', async () => {
    let refuse = false;
    const listener = await listenWebSocket({
      port: 0,
      keepAliveMs: 0,
      dnsRebindingProtection: { allowedOrigins: ['http://ok.example'] },
      onsession: (t) => t.start(),
    });
    defer(() => listener.close());
    const client = new WebSocketClientTransport(listener.url!, {
      keepAliveMs: 0,
      reconnect: fast,
      ws: {
        get origin() {
          return refuse ? 'http://evil.example' : 'http://ok.example';
        },
      },
    });
    defer(() => client.close());
    const errors: Error[] = [];
    let closes = 0;
    client.onerror = (error) => errors.push(error);
    client.onclose = () => closes++;
    await client.start();
    refuse = true;
    await waitFor(() => listener.sessions.size === 1);
    for (const transport of listener.sessions) await transport.closeWith(1001, 'restart');
    await waitFor(() => closes === 1, { timeoutMs: 5_000, what: 'onclose' });
    expect((errors.at(-1) as Error & { cause?: unknown }).cause).toMatchObject({ status: 403 });
  });

  it('does not reconnect after a deliberate normal closure (1000) by the server', async () => {
    const server = await droppableServer({ echo: true });
    const { client, events } = trackedClient(server.url, fast);
    await client.start();
    await waitFor(() => server.transports.length === 1);
    await server.transports[0]?.close();
    await waitFor(() => events.closes === 1);
    expect(client.connected).toBe(false);
    expect(server.transports).toHaveLength(1);
  });

  it('close() while reconnecting stops the attempts and fires onclose once', async () => {
    const server = await droppableServer({ echo: true });
    const { client, events } = trackedClient(server.url, { initialDelayMs: 10_000, maxAttempts: 5 });
    await client.start();
    server.sockets[0]?.destroy();
    await waitFor(() => !client.connected);
    await client.close();
    expect(events.closes).toBe(1);
    expect(events.reconnects).toBe(0);
    expect(server.transports).toHaveLength(1);
  });
});
