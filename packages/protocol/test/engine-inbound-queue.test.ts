import { describe, expect, it } from 'vitest';
import { Protocol } from '../src/engine/index.js';
import type { ProtocolOptions, RequestContext } from '../src/engine/index.js';
import type { JSONRPCMessage } from '../src/jsonrpc.js';
import { PRIORITY_META_KEY } from '../src/message-priority.js';
import { engineWithRawPeer } from './engine-helpers.js';

// Issue #42, inbound: at most `maxConcurrentRequests` handlers run; the rest wait, normal before bulk,
// oldest first; urgent requests never wait; a cancelled waiting request never runs; the queue is bounded.

/** An engine whose `work` handler runs until the test releases it, recording who started. */
async function queued(options: ProtocolOptions) {
  const engine = new Protocol(options);
  const started: unknown[] = [];
  const releases = new Map<unknown, () => void>();
  const signals = new Map<unknown, AbortSignal>();
  engine.setRequestHandler('work', (params, ctx: RequestContext) => {
    const n = params['n'];
    started.push(n);
    signals.set(n, ctx.signal);
    return new Promise((resolve) => releases.set(n, () => resolve({ n })));
  });
  engine.setRequestHandler('quick', () => ({ quick: true }));
  const raw = await engineWithRawPeer(engine);
  const work = (id: number, meta?: Record<string, unknown>) =>
    raw.inject({
      jsonrpc: '2.0',
      id,
      method: 'work',
      params: meta === undefined ? { n: id } : { n: id, _meta: meta },
    });
  const release = async (n: unknown) => {
    const done = releases.get(n);
    if (done === undefined) throw new Error(`work ${String(n)} has not started`);
    done();
    await raw.inject({ jsonrpc: '2.0', method: 'notifications/x-noop' });
  };
  return { ...raw, started, release, signals, work };
}

const answered = (wire: JSONRPCMessage[]) =>
  wire.filter((m) => 'id' in m && !('method' in m)).map((m) => (m as { id: unknown }).id);

describe('engine: inbound request queue (maxConcurrentRequests)', () => {
  it('runs at most maxConcurrentRequests handlers; the others start in arrival order as slots free', async () => {
    const { engine, started, release, work, wire } = await queued({ maxConcurrentRequests: 2 });
    for (let id = 1; id <= 5; id += 1) await work(id);
    expect(started).toEqual([1, 2]);
    expect(engine.activeRequestCount).toBe(2);
    expect(engine.queuedRequestCount).toBe(3);
    await release(2);
    expect(started).toEqual([1, 2, 3]);
    await release(1);
    await release(3);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    await release(4);
    await release(5);
    expect(answered(wire)).toEqual([2, 1, 3, 4, 5]);
    expect(engine.activeRequestCount).toBe(0);
    expect(engine.queuedRequestCount).toBe(0);
  });

  it('starts waiting normal requests before waiting bulk ones, whatever their arrival', async () => {
    const { started, release, work } = await queued({ maxConcurrentRequests: 1 });
    await work(1);
    await work(2, { [PRIORITY_META_KEY]: 'bulk' });
    await work(3);
    await work(4, { [PRIORITY_META_KEY]: 'bulk' });
    await work(5);
    for (const n of [1, 3, 5, 2]) await release(n);
    expect(started).toEqual([1, 3, 5, 2, 4]);
  });

  it('never queues urgent requests: ping and what the priority option makes urgent run past the limit', async () => {
    const { started, work, wire, inject } = await queued({
      maxConcurrentRequests: 1,
      ping: true,
      priority: (message) => (message.params?.['n'] === 9 ? 'urgent' : undefined),
    });
    await work(1);
    await work(2);
    await inject({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    await work(9);
    expect(started).toEqual([1, 9]);
    expect(answered(wire)).toEqual(['p']);
  });

  it('does not let a peer lift the limit by asking for urgent in _meta', async () => {
    const { started, work } = await queued({ maxConcurrentRequests: 1 });
    await work(1);
    await work(2, { [PRIORITY_META_KEY]: 'urgent' });
    expect(started).toEqual([1]);
  });

  it('drops a waiting request on notifications/cancelled: it never runs and gets no answer', async () => {
    const { engine, started, release, work, wire, inject } = await queued({ maxConcurrentRequests: 1 });
    await work(1);
    await work(2);
    await work(3);
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(engine.queuedRequestCount).toBe(1);
    await release(1);
    await release(3);
    expect(started).toEqual([1, 3]);
    expect(answered(wire)).toEqual([1, 3]);
  });

  it('keeps a cancelled running handler in its slot until it returns, then answers nothing for it', async () => {
    const { engine, started, release, signals, work, wire, inject } = await queued({
      maxConcurrentRequests: 1,
    });
    await work(1);
    await work(2);
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(signals.get(1)?.aborted).toBe(true);
    expect(started).toEqual([1]);
    expect(engine.queuedRequestCount).toBe(1);
    await release(1);
    expect(started).toEqual([1, 2]);
    await release(2);
    expect(answered(wire)).toEqual([2]);
  });

  it('answers -32600 naming maxQueuedRequests at once when the queue is full', async () => {
    const { started, work, wire } = await queued({ maxConcurrentRequests: 1, maxQueuedRequests: 2 });
    for (let id = 1; id <= 4; id += 1) await work(id);
    expect(started).toEqual([1]);
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32600,
          message: expect.stringContaining('maxQueuedRequests (2)'),
          data: { maxQueuedRequests: 2 },
        },
      },
    ]);
  });

  it('refuses a duplicate id of a waiting request, as of a running one', async () => {
    const { work, wire } = await queued({ maxConcurrentRequests: 1 });
    await work(1);
    await work(2);
    await work(2);
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringContaining('Duplicate') } },
    ]);
  });

  it('runs no waiting request once the connection closed', async () => {
    const { engine, started, release, work } = await queued({ maxConcurrentRequests: 1 });
    await work(1);
    await work(2);
    await engine.close();
    expect(engine.queuedRequestCount).toBe(0);
    await release(1).catch(() => undefined);
    expect(started).toEqual([1]);
  });

  it('answers a handler that returns at once without recursion through the queue', async () => {
    const engine = new Protocol({ maxConcurrentRequests: 1 });
    let open: (() => void) | undefined;
    engine.setRequestHandler('block', () => new Promise((resolve) => (open = () => resolve({}))));
    engine.setRequestHandler('quick', () => ({}));
    const { inject, wire } = await engineWithRawPeer(engine);
    await inject({ jsonrpc: '2.0', id: 0, method: 'block' });
    for (let id = 1; id <= 500; id += 1)
      await engine.transport?.onmessage?.({ jsonrpc: '2.0', id, method: 'quick' });
    expect(engine.queuedRequestCount).toBe(500);
    open?.();
    await inject({ jsonrpc: '2.0', method: 'notifications/x-noop' });
    expect(answered(wire)).toEqual(Array.from({ length: 501 }, (_, id) => id));
  });

  it('refuses limits that are not positive integers, naming the option', () => {
    expect(() => new Protocol({ maxConcurrentRequests: 0 })).toThrow(/maxConcurrentRequests/);
    expect(() => new Protocol({ maxConcurrentRequests: 1.5 })).toThrow(/maxConcurrentRequests/);
    expect(() => new Protocol({ maxConcurrentRequests: 1, maxQueuedRequests: -1 })).toThrow(
      /maxQueuedRequests/,
    );
    expect(() => new Protocol({ maxConcurrentRequests: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
