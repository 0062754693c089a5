import { status } from '@grpc/grpc-js';
import type { JSONRPCMessage } from '@x/protocol/core';
import { MessageTooLargeError } from '@x/protocol/transport';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { GrpcClientTransport, GrpcStatusError, SendBufferFullError, SendStalledError } from '../src/index.js';
import { startRelay } from './raw-peer.js';
import { connectClient, startMcp, startSessions, textOf } from './helpers.js';

/** A started client transport that records what it receives. */
async function rawClient(target: string, options: ConstructorParameters<typeof GrpcClientTransport>[1] = {}) {
  const transport = new GrpcClientTransport(target, { keepAliveMs: 0, ...options });
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  return { transport, received, errors };
}

describe('limits', () => {
  it('refuses to send a message over maxMessageBytes with an error naming the option; the stream goes on', async () => {
    await using sessions = await startSessions();
    const { transport } = await rawClient(sessions.listener.target, { maxMessageBytes: 1024 });
    const { transport: server } = await sessions.next();
    const got: JSONRPCMessage[] = [];
    server.onmessage = (message) => got.push(message);
    const big = { jsonrpc: '2.0' as const, id: 1, method: 'x', params: { pad: 'y'.repeat(2048) } };
    const failure = await transport.send(big).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MessageTooLargeError);
    expect(String((failure as Error).message)).toMatch(/maxMessageBytes/);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'small' });
    await waitFor(() => got.length === 1);
    expect(got[0]).toMatchObject({ id: 2 });
    await transport.close();
  }, 30_000);

  it('answers an incoming request over maxMessageBytes with an error naming the option, and keeps the session', async () => {
    await using sessions = await startSessions({ maxMessageBytes: 1024 });
    const { transport, received } = await rawClient(sessions.listener.target);
    const { transport: server } = await sessions.next();
    const serverErrors: Error[] = [];
    server.onerror = (error) => serverErrors.push(error);
    const got: JSONRPCMessage[] = [];
    server.onmessage = (message) => got.push(message);
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'big', params: { pad: 'z'.repeat(4096) } });
    await waitFor(() => received.length === 1);
    expect(received[0]).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    expect(JSON.stringify(received[0])).toMatch(/maxMessageBytes/);
    expect(serverErrors[0]).toBeInstanceOf(MessageTooLargeError);
    await transport.send({ jsonrpc: '2.0', id: 8, method: 'small' });
    await waitFor(() => got.length === 1);
    await transport.close();
  }, 30_000);

  it('refuses a session past maxSessions with RESOURCE_EXHAUSTED naming the option', async () => {
    await using sessions = await startSessions({ maxSessions: 2 });
    const first = await rawClient(sessions.listener.target);
    const second = await rawClient(sessions.listener.target);
    const third = new GrpcClientTransport(sessions.listener.target, { keepAliveMs: 0 });
    const failure = await third.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GrpcStatusError);
    expect((failure as GrpcStatusError).status).toBe(status.RESOURCE_EXHAUSTED);
    expect((failure as Error).message).toMatch(/maxSessions/);
    // A closed session frees its place.
    await first.transport.close();
    await waitFor(() => sessions.listener.service.sessions === 1, { timeoutMs: 10_000 });
    const fourth = await rawClient(sessions.listener.target);
    await fourth.transport.close();
    await second.transport.close();
  }, 30_000);

  it('refuses sessions opened too fast with RESOURCE_EXHAUSTED naming sessionRateLimit', async () => {
    await using sessions = await startSessions({ sessionRateLimit: { perSecond: 0.001, burst: 1 } });
    const first = await rawClient(sessions.listener.target);
    const second = new GrpcClientTransport(sessions.listener.target, { keepAliveMs: 0 });
    const failure = (await second.start().catch((error: unknown) => error)) as GrpcStatusError;
    expect(failure.status).toBe(status.RESOURCE_EXHAUSTED);
    expect(failure.message).toMatch(/sessionRateLimit/);
    expect(failure.trailers?.get('retry-after')[0]).toMatch(/^\d+$/);
    await first.transport.close();
  }, 30_000);

  it('a burst of 24 results of 1 MiB each arrives whole', async () => {
    await using listener = await startMcp();
    const { client } = await connectClient(listener.target);
    try {
      const size = 1024 * 1024;
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          client.callTool({ name: 'blob', arguments: { bytes: size, tag: `#${i}:` } }),
        ),
      );
      results.forEach((result, i) => {
        const text = textOf(result);
        expect(text.length).toBe(size);
        expect(text.startsWith(`#${i}:`)).toBe(true);
      });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a peer that stops reading is ended after sendStallTimeoutMs, failing the pending sends at once', async () => {
    await using sessions = await startSessions({ maxBufferedBytes: 64 * 1024, sendStallTimeoutMs: 1_000 });
    await using relay = await startRelay(sessions.listener.port);
    const { transport } = await rawClient(relay.target);
    const { transport: server } = await sessions.next();
    let closed = false;
    server.onclose = () => {
      closed = true;
    };
    const notice = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { data: 'q'.repeat(64 * 1024) },
    };
    // The peer reads: a few sends complete one after another.
    for (let i = 0; i < 4; i++) await server.send(notice);
    relay.freeze();
    let sent = 0;
    let failure: unknown;
    while (!closed && sent < 1_000) {
      failure = await server.send(notice).catch((error: unknown) => error);
      if (failure !== undefined) break;
      sent++;
    }
    expect(sent).toBeLessThan(1_000);
    await waitFor(() => closed, { timeoutMs: 10_000 });
    expect(failure).toBeInstanceOf(SendStalledError);
    expect(String(server.closeReason)).toMatch(/sendStallTimeoutMs/);
    await transport.close();
  }, 60_000);

  it('a peer that stops reading is ended once more than maxQueuedBytes wait, failing what waited at once', async () => {
    await using sessions = await startSessions({
      maxBufferedBytes: 64 * 1024,
      maxQueuedBytes: 512 * 1024,
      sendStallTimeoutMs: 0,
    });
    await using relay = await startRelay(sessions.listener.port);
    const { transport } = await rawClient(relay.target);
    const { transport: server } = await sessions.next();
    let closed = false;
    server.onclose = () => {
      closed = true;
    };
    relay.freeze();
    const notice = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { data: 'q'.repeat(32 * 1024) },
    };
    const pending: Promise<unknown>[] = [];
    // Paced: each send waits for the one before it or for 20 ms, so only a peer that stopped reading
    // lets the queue grow.
    for (let i = 0; i < 2_000 && !closed; i++) {
      const sent = server.send(notice).catch((error: unknown) => error);
      pending.push(sent);
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
    expect(closed).toBe(true);
    expect(server.closeReason).toBeInstanceOf(SendBufferFullError);
    expect(String(server.closeReason)).toMatch(/maxQueuedBytes/);
    const outcomes = await Promise.all(pending);
    expect(outcomes.filter((outcome) => outcome instanceof SendBufferFullError).length).toBeGreaterThan(0);
    await transport.close();
  }, 120_000);
});
