import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { SendBufferFullError, WebSocketClientTransport } from '../src/index.js';
import { defer, listenerWithSockets, rawClient, request, startServer, stalledClient } from './helpers.js';
import { afterTurn, waitFor } from '@x/test-kit';

const HEARTBEAT_MS = 50;

describe('liveness and backpressure', () => {
  it('client: onclose fires when the server socket is destroyed without a close frame; sends then fail', async () => {
    const { listener, sockets } = await listenerWithSockets();
    const client = new WebSocketClientTransport(listener.url!, { keepAliveMs: HEARTBEAT_MS });
    defer(() => client.close());
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.start();
    await waitFor(() => listener.sessions.size === 1);
    let serverClosed = false;
    for (const transport of listener.sessions) {
      transport.onclose = () => {
        serverClosed = true;
      };
    }

    sockets[0]?.destroy();
    await waitFor(() => closed && serverClosed, { timeoutMs: 2_000, what: 'both sides to see the drop' });
    await expect(client.send(request(1))).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('client: a server that stops answering pings is dropped within the heartbeat window', async () => {
    const wss = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      autoPong: false,
      handleProtocols: () => 'mcp',
    });
    defer(() => new Promise((resolve) => wss.close(resolve)));
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (socket) => defer(() => socket.terminate()));
    const address = wss.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    const client = new WebSocketClientTransport(`ws://127.0.0.1:${address.port}`, {
      keepAliveMs: HEARTBEAT_MS,
    });
    defer(() => client.close());
    let closedAt = 0;
    client.onclose = () => {
      closedAt = Date.now();
    };
    await client.start();
    const startedAt = Date.now();
    await waitFor(() => closedAt > 0, { timeoutMs: 3_000, what: 'client onclose' });
    // Dead between one and two intervals after the last sign of life (timer slack allowed).
    expect(closedAt - startedAt).toBeGreaterThanOrEqual(HEARTBEAT_MS);
    // Far below ws's own 30 s close timeout: the heartbeat did it. Loose upper bound for busy CI cores.
    expect(closedAt - startedAt).toBeLessThan(2_000);
  });

  it('server: a client that stops answering pings is dropped within the heartbeat window', async () => {
    const server = await startServer({ keepAliveMs: HEARTBEAT_MS });
    const { opened, closed } = rawClient(server.url, { autoPong: false });
    await opened;
    const serverSide = await server.next();
    const startedAt = Date.now();
    let closedAt = 0;
    serverSide.onclose = () => {
      closedAt = Date.now();
    };
    await waitFor(() => closedAt > 0, { timeoutMs: 3_000, what: 'server onclose' });
    expect(closedAt - startedAt).toBeLessThan(2_000);
    expect((await closed).code).toBe(1006);
    expect(server.listener.sessions.size).toBe(0);
  });

  it('server: keeps a slow reader bounded (SendBufferFullError), then fails pending sends when it is dropped', async () => {
    const server = await startServer({ keepAliveMs: 300, maxBufferedBytes: 256 * 1024 });
    stalledClient(server.url);
    const serverSide = await server.next();
    let closed = false;
    serverSide.onclose = () => {
      closed = true;
    };

    const chunk = 'z'.repeat(64 * 1024);
    const pending: Array<Promise<unknown>> = [];
    let refusal: unknown;
    for (let i = 0; i < 2_000 && refusal === undefined && !closed; i++) {
      const sent = serverSide.send({ jsonrpc: '2.0', method: 'notifications/message', params: { chunk } });
      const settled = sent.then(
        () => 'sent',
        (error: unknown) => error,
      );
      pending.push(settled);
      // Let the socket flush what the kernel will take before deciding the peer is slow.
      await afterTurn();
      const outcome = await Promise.race([settled, Promise.resolve('pending')]);
      if (outcome instanceof SendBufferFullError) refusal = outcome;
    }
    expect(refusal).toBeInstanceOf(SendBufferFullError);
    expect((refusal as SendBufferFullError).limit).toBe(256 * 1024);

    // The stalled peer never answers the heartbeat; what is still unsent fails with ConnectionClosedError.
    await waitFor(() => closed, { timeoutMs: 3_000, what: 'heartbeat drop' });
    const outcomes = await Promise.all(pending);
    const failed = outcomes.filter((outcome) => outcome instanceof ConnectionClosedError);
    expect(failed.length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome instanceof SendBufferFullError)).toHaveLength(1);
  });
});
