import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionClosedError } from '../src/errors.js';
import { Protocol } from '../src/engine/index.js';
import type { Transport } from '../src/transport.js';
import { InMemoryTransport } from '../src/transports/in-memory-transport.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Empty = z.object({});

afterEach(() => {
  vi.useRealTimers();
});

describe('engine: close', () => {
  it('rejects every pending request, aborts every handler, clears timers and fires onclose once', async () => {
    vi.useFakeTimers();
    const { engine, inject } = await engineWithRawPeer();
    const onclose = vi.fn();
    engine.onclose = onclose;
    const signals: AbortSignal[] = [];
    engine.setRequestHandler('hang', (_p, ctx) => {
      signals.push(ctx.signal);
      return new Promise(() => {});
    });
    const pending = [
      engine.request({ method: 'a' }, Empty, { signal: new AbortController().signal }),
      engine.request({ method: 'b' }, Empty, { onprogress: () => {} }),
    ].map((p) => p.catch((e: unknown) => e));
    await inject({ jsonrpc: '2.0', id: 'h1', method: 'hang' });
    await inject({ jsonrpc: '2.0', id: 'h2', method: 'hang' });
    expect(vi.getTimerCount()).toBe(1); // both timeouts share one timer

    await engine.close();
    await engine.close();

    for (const outcome of await Promise.all(pending)) expect(outcome).toBeInstanceOf(ConnectionClosedError);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    expect(signals[0]?.reason).toBeInstanceOf(ConnectionClosedError);
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(engine.pendingRequestCount).toBe(0);
    expect(engine.activeRequestCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(engine.transport).toBeUndefined();
  });

  it('does the same when the transport closes by itself (peer hung up)', async () => {
    const { client, server } = await enginePair();
    const clientClosed = vi.fn();
    const serverClosed = vi.fn();
    client.onclose = clientClosed;
    server.onclose = serverClosed;
    let handlerSignal: AbortSignal | undefined;
    client.setRequestHandler('hang', (_p, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => {});
    });
    void server.request({ method: 'hang' }, Empty).catch(() => {});
    const pending = client.request({ method: 'never-answered' }, Empty, { timeout: 60_000 });
    server.setRequestHandler('never-answered', () => new Promise(() => {}));
    await afterMicrotasks(20);
    await server.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(handlerSignal?.aborted).toBe(true);
    expect(clientClosed).toHaveBeenCalledTimes(1);
    expect(serverClosed).toHaveBeenCalledTimes(1);
    expect(client.pendingRequestCount).toBe(0);
  });

  it('rejects requests and notifications after close (and before connect) with ConnectionClosedError', async () => {
    const { engine } = await engineWithRawPeer();
    await engine.close();
    await expect(engine.request({ method: 'x' }, Empty)).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(engine.notification({ method: 'n' })).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(new Protocol().request({ method: 'x' }, Empty)).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
  });

  it('sends no response for a handler that finishes after close', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const engine = new Protocol();
    let release: () => void = () => {};
    engine.setRequestHandler('slow', () => new Promise((resolve) => (release = () => resolve({}))));
    const sends: unknown[] = [];
    const send = a.send.bind(a);
    a.send = (message, options) => {
      sends.push(message);
      return send(message, options);
    };
    await b.start();
    await engine.connect(a);
    await b.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    await afterMicrotasks(20);
    await engine.close();
    release();
    await afterMicrotasks(20);
    expect(sends).toEqual([]);
  });

  it('refuses a second transport while connected, and reconnects after close with fresh ids', async () => {
    const { engine, wire } = await engineWithRawPeer();
    await expect(engine.connect(InMemoryTransport.createLinkedPair()[0])).rejects.toThrow(
      'already connected',
    );
    void engine.request({ method: 'x' }, Empty).catch(() => {});
    await afterMicrotasks(20);
    await engine.close();
    const [a, b] = InMemoryTransport.createLinkedPair();
    const received: unknown[] = [];
    b.onmessage = (m) => {
      received.push(m);
    };
    await b.start();
    await engine.connect(a);
    void engine.request({ method: 'y' }, Empty).catch(() => {});
    await afterMicrotasks(20);
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 1 } } }]);
    // Ids keep counting across connections, so a late answer to an old request cannot be mistaken.
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 2, method: 'y', params: { _meta: { progressToken: 2 } } },
    ]);
    await engine.close();
  });

  it('keeps handlers a transport had and still cleans up when start() fails', async () => {
    const previousClose = vi.fn();
    const previousError = vi.fn();
    const failing: Transport = {
      start: () => Promise.reject(new Error('cannot start')),
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
      onclose: previousClose,
      onerror: previousError,
    };
    const engine = new Protocol();
    await expect(engine.connect(failing)).rejects.toThrow('cannot start');
    expect(engine.transport).toBeUndefined();
    failing.onerror?.(new Error('x'));
    expect(previousError).toHaveBeenCalled();
    // A start() that throws instead of rejecting: still a rejected connect(), and the engine is free again.
    const throwing: Transport = {
      start: () => {
        throw new Error('bad start');
      },
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const connecting = engine.connect(throwing);
    await expect(connecting).rejects.toThrow('bad start');
    expect(engine.transport).toBeUndefined();
  });

  it('rejects a request whose send fails with the transport error', async () => {
    const engine = new Protocol();
    const transport: Transport = {
      start: () => Promise.resolve(),
      send: () => Promise.reject(new Error('write EPIPE')),
      close: () => Promise.resolve(),
    };
    await engine.connect(transport);
    await expect(engine.request({ method: 'x' }, Empty)).rejects.toThrow('write EPIPE');
    expect(engine.pendingRequestCount).toBe(0);
  });
});

describe('engine: rejectPendingRequest (for subclasses)', () => {
  class Dropping extends Protocol {
    drop(id: number, error: unknown): boolean {
      return this.rejectPendingRequest(id, error);
    }
  }

  it('rejects one pending request locally without sending anything', async () => {
    const { engine, wire } = await engineWithRawPeer(new Dropping());
    const listen = engine.request({ method: 'subscriptions/listen' }, Empty).catch((e: unknown) => e);
    const other = engine.request({ method: 'other' }, Empty);
    await afterMicrotasks(20);
    const reason = new Error('server tore the subscription down');
    expect(engine.drop(1, reason)).toBe(true);
    expect(engine.drop(1, reason)).toBe(false);
    expect(await listen).toBe(reason);
    await afterMicrotasks(20);
    expect(wire.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'subscriptions/listen',
      'other',
    ]);
    expect(engine.pendingRequestCount).toBe(1);
    await engine.close();
    await expect(other).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});
