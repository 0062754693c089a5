import { ConnectionClosedError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { SendBufferFullError, SendStalledError, WebSocketClientTransport } from '../src/index.js';
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

  it('server: a busy peer that reads a flood slowly and never pongs is not dropped while frames leave (issue #42)', async () => {
    // No pong ever comes (autoPong off): only the frames leaving the queue show the peer alive. The
    // client reads the first half of the flood slowly (a frame per `PACE_MS`, some 3 intervals in all),
    // then the rest at full speed; a heartbeat that waited for pongs would drop it within 2 intervals.
    const INTERVAL_MS = 200;
    const PACE_MS = 20;
    const FRAMES = 64;
    const server = await startServer({
      keepAliveMs: INTERVAL_MS,
      echo: false,
      maxBufferedBytes: 1024 * 1024,
      maxQueuedBytes: 256 * 1024 * 1024,
      sendStallTimeoutMs: 0,
    });
    const { socket, opened, closed } = rawClient(server.url, { autoPong: false });
    await opened;
    const serverSide = await server.next();
    let pings = 0;
    socket.on('ping', () => pings++);
    let received = 0;
    const all = new Promise<void>((resolve) => {
      socket.on('message', () => {
        received++;
        if (received === FRAMES) resolve();
        else if (received < FRAMES / 2) {
          socket.pause();
          setTimeout(() => socket.resume(), PACE_MS);
        }
      });
    });
    socket.pause();
    const frame = 'x'.repeat(1024 * 1024);
    const sends = Array.from({ length: FRAMES }, (_, i) =>
      serverSide.send({ jsonrpc: '2.0', id: i, result: { frame } }).then(
        () => true,
        () => false,
      ),
    );
    socket.resume();
    await Promise.race([
      all,
      closed.then(({ code }) => {
        throw new Error(`dropped (${code}) after ${received} of ${FRAMES} frames`);
      }),
    ]);
    expect(await Promise.all(sends)).toEqual(sends.map(() => true));
    // The heartbeat did run meanwhile: its pings came with the flood.
    expect(pings).toBeGreaterThan(0);
  }, 60_000);

  it('server: a peer that stops reading gets backpressure up to maxQueuedBytes, then 1008; every waiting send fails with SendBufferFullError (issue #35)', async () => {
    // No heartbeat: the queue bound alone must end the connection.
    const server = await startServer({
      keepAliveMs: 0,
      maxBufferedBytes: 256 * 1024,
      maxQueuedBytes: 512 * 1024,
    });
    stalledClient(server.url);
    const serverSide = await server.next();
    const errors: Error[] = [];
    serverSide.onerror = (error) => errors.push(error);
    let closed = false;
    serverSide.onclose = () => {
      closed = true;
    };

    const chunk = 'z'.repeat(64 * 1024);
    const pending: Array<Promise<unknown>> = [];
    // Far more than the kernel, the socket and the queue hold together: the sends must stop being taken.
    for (let i = 0; i < 2_000 && errors.length === 0; i++) {
      const sent = serverSide.send({ jsonrpc: '2.0', method: 'notifications/message', params: { chunk } });
      pending.push(
        sent.then(
          () => 'sent',
          (error: unknown) => error,
        ),
      );
      // Let the socket flush what the kernel will take before the next one.
      await afterTurn();
    }
    expect(errors).toHaveLength(1);
    const error = errors[0] as SendBufferFullError;
    expect(error).toBeInstanceOf(SendBufferFullError);
    expect(error.limit).toBe(512 * 1024);
    expect(error.message).toMatch(/maxQueuedBytes/);

    // Every send not handed to the kernel fails with that error, none is left hanging, and the
    // connection ends (the peer never answers the close frame: the close timeout drops it).
    const outcomes = await Promise.all(pending);
    const failed = outcomes.filter((outcome) => outcome !== 'sent');
    expect(failed.length).toBeGreaterThan(1);
    for (const outcome of failed) expect(outcome).toBe(error);
    await waitFor(() => closed, { timeoutMs: 5_000, what: 'the connection to end' });
    expect(server.listener.sessions.size).toBe(0);
  });

  it('client (Node): a server that stops reading is given up after sendStallTimeoutMs: onerror, every waiting send fails, onclose (issue #35)', async () => {
    // Never started: the server's socket stays paused and reads nothing.
    const server = await startServer({ autoStart: false });
    const client = new WebSocketClientTransport(server.url, { keepAliveMs: 0, sendStallTimeoutMs: 100 });
    defer(() => client.close());
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.start();
    const text = 'c'.repeat(1024 * 1024);
    // 16 MiB: more than the kernel takes for a reader that reads nothing, under the queue bound.
    const outcomes = Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        client.send(request(i, { text })).then(
          () => 'sent',
          (error: unknown) => error,
        ),
      ),
    );
    await waitFor(() => errors.length > 0, { timeoutMs: 5_000, what: 'the stall' });
    expect(errors[0]).toBeInstanceOf(SendStalledError);
    expect(errors[0]?.message).toMatch(/sendStallTimeoutMs \(100 ms\)/);
    const settled = await outcomes;
    expect(settled.filter((outcome) => outcome === errors[0]).length).toBeGreaterThan(0);
    expect(settled.every((outcome) => outcome === 'sent' || outcome === errors[0])).toBe(true);
    await waitFor(() => closed, { timeoutMs: 5_000, what: 'the connection to end' });
  });

  it('server: a peer that stops reading is dropped after sendStallTimeoutMs with SendStalledError (issue #35)', async () => {
    const server = await startServer({ keepAliveMs: 0, sendStallTimeoutMs: 100 });
    stalledClient(server.url);
    const serverSide = await server.next();
    const errors: Error[] = [];
    serverSide.onerror = (error) => errors.push(error);
    let closed = false;
    serverSide.onclose = () => {
      closed = true;
    };
    // 16 MiB: more than the kernel takes from a peer that never reads, well under the queue bound.
    const chunk = 'z'.repeat(1024 * 1024);
    const pending = Array.from({ length: 16 }, () =>
      serverSide.send({ jsonrpc: '2.0', method: 'notifications/message', params: { chunk } }).then(
        () => 'sent',
        (error: unknown) => error,
      ),
    );
    await waitFor(() => errors.length === 1, { timeoutMs: 5_000, what: 'the stall' });
    expect(errors[0]).toBeInstanceOf(SendStalledError);
    expect(errors[0]?.message).toMatch(/sendStallTimeoutMs \(100 ms\)/);
    const outcomes = await Promise.all(pending);
    expect(outcomes.filter((outcome) => outcome === errors[0]).length).toBeGreaterThan(0);
    expect(outcomes.every((outcome) => outcome === 'sent' || outcome === errors[0])).toBe(true);
    await waitFor(() => closed, { timeoutMs: 5_000, what: 'the connection to end' });
  });
});
