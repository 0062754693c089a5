import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { z } from 'zod';
import { McpError } from '../src/errors.js';
import { Protocol } from '../src/engine/index.js';
import type { RequestContext } from '../src/engine/index.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Empty = z.object({});

describe('engine: cancelling outgoing requests', () => {
  it('sends notifications/cancelled with requestId and reason and rejects with the abort reason', async () => {
    const { engine, wire, errors, inject } = await engineWithRawPeer();
    const controller = new AbortController();
    const pending = engine.request({ method: 'slow' }, Empty, { signal: controller.signal });
    await afterMicrotasks(20);
    const reason = new McpError(-1, 'User pressed stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await afterMicrotasks(20);
    // Asked for progress although no callback was given (resetTimeoutOnProgress is on).
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'slow', params: { _meta: { progressToken: 1 } } },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'User pressed stop' },
      },
    ]);
    expect(engine.pendingRequestCount).toBe(0);
    // The spec: a response arriving after cancellation is ignored.
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    expect(errors).toEqual([]);
  });

  it('uses a string reason as is and rejects with a default AbortError reason when none is given', async () => {
    const { engine, wire } = await engineWithRawPeer();
    const a = new AbortController();
    const b = new AbortController();
    const first = engine.request({ method: 'a' }, Empty, { signal: a.signal }).catch((e: unknown) => e);
    const second = engine.request({ method: 'b' }, Empty, { signal: b.signal }).catch((e: unknown) => e);
    a.abort('changed my mind');
    b.abort();
    expect(await first).toBe('changed my mind');
    expect(await second).toMatchObject({ name: 'AbortError' });
    await afterMicrotasks(20);
    expect(wire.slice(2)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'changed my mind' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: expect.any(String) },
      },
    ]);
  });

  it('sends nothing for an already aborted signal', async () => {
    const { engine, wire } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Empty, { signal: AbortSignal.abort('early') });
    await expect(pending).rejects.toBe('early');
    await afterMicrotasks(20);
    expect(wire).toEqual([]);
  });

  it('never sends notifications/cancelled for initialize (spec: cancellation)', async () => {
    const { engine, wire } = await engineWithRawPeer();
    const controller = new AbortController();
    const pending = engine.request({ method: 'initialize' }, Empty, { signal: controller.signal });
    controller.abort('no');
    await expect(pending).rejects.toBe('no');
    await afterMicrotasks(20);
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, method: 'initialize' }]);
  });

  it('honours a custom uncancellableMethods list', async () => {
    const { engine, wire } = await engineWithRawPeer(new Protocol({ uncancellableMethods: ['x/commit'] }));
    const a = new AbortController();
    const pendings = [
      engine.request({ method: 'x/commit' }, Empty, { signal: a.signal }),
      engine.request({ method: 'initialize' }, Empty, { signal: a.signal }),
    ].map((p) => p.catch(() => {}));
    a.abort('stop');
    await Promise.all(pendings);
    await afterMicrotasks(20);
    expect(wire.filter((m) => 'method' in m && m.method === 'notifications/cancelled')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'stop' } },
    ]);
  });
});

describe('engine: cancelled incoming requests', () => {
  it('aborts the handler signal and sends no response', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    let ctxSeen: RequestContext | undefined;
    let finish: () => void = () => {};
    engine.setRequestHandler('slow', (_p, ctx) => {
      ctxSeen = ctx;
      return new Promise((resolve) => {
        finish = () => resolve({ late: true });
      });
    });
    await inject({ jsonrpc: '2.0', id: 7, method: 'slow' });
    expect(engine.activeRequestCount).toBe(1);
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'bored' },
    });
    expect(ctxSeen?.signal.aborted).toBe(true);
    expect(ctxSeen?.signal.reason).toMatchObject({ name: 'AbortError', message: 'bored' });
    expect(engine.activeRequestCount).toBe(0);
    finish();
    await afterMicrotasks(20);
    expect(wire).toEqual([]);
  });

  it('sends no response for a cancelled handler that never looked at its signal', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    let finish: () => void = () => {};
    engine.setRequestHandler('slow', () => new Promise((resolve) => (finish = () => resolve({}))));
    await inject({ jsonrpc: '2.0', id: 1, method: 'slow' });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    finish();
    await afterMicrotasks(20);
    expect(wire).toEqual([]);
  });

  it('ignores a cancel for an unknown, finished or malformed id', async () => {
    const { engine, wire, errors, inject } = await engineWithRawPeer();
    engine.setRequestHandler('quick', () => ({ ok: true }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'quick' });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 404 } });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { bad: true } } });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled' });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
    expect(errors).toEqual([]);
  });

  it('ignores a cancel for initialize and answers it normally', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    let release: () => void = () => {};
    engine.setRequestHandler(
      'initialize',
      () => new Promise((resolve) => (release = () => resolve({ ok: 1 }))),
    );
    await inject({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    release();
    await afterMicrotasks(20);
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: 1 } }]);
  });

  it('aborts the handler when the transport reports the requester went away (extra.signal)', async () => {
    const { engine, transport, wire, inject } = await engineWithRawPeer();
    const gone = new AbortController();
    transport.extra = { signal: gone.signal };
    let signal: AbortSignal | undefined;
    engine.setRequestHandler('slow', (_p, ctx) => {
      signal = ctx.signal;
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({})));
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'slow' });
    gone.abort('stream closed');
    await afterMicrotasks(20);
    expect(signal?.reason).toBe('stream closed');
    expect(wire).toEqual([]);
  });

  it('links extra.signal only when the handler reads ctx.signal, and unlinks when it finishes', async () => {
    const { engine, transport, wire, inject } = await engineWithRawPeer();
    const gone = new AbortController();
    let reads = 0;
    transport.extra = {
      get signal() {
        reads++;
        return gone.signal;
      },
    };
    engine.setRequestHandler('quick', () => ({ n: 1 }));
    engine.setRequestHandler('watching', (_p, ctx) => ({ aborted: ctx.signal.aborted }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'quick' });
    await afterMicrotasks(20);
    // A handler that never looks at its signal costs the transport's signal nothing.
    expect(reads).toBe(0);
    await inject({ jsonrpc: '2.0', id: 2, method: 'watching' });
    await afterMicrotasks(20);
    expect(reads).toBeGreaterThan(0);
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, result: { n: 1 } },
      { jsonrpc: '2.0', id: 2, result: { aborted: false } },
    ]);
  });

  it('does not link extra.signal for a signal first read after the handler finished', async () => {
    const { engine, transport, inject } = await engineWithRawPeer();
    const session = new AbortController(); // a transport-wide signal that outlives requests
    transport.extra = { signal: session.signal };
    let kept: RequestContext | undefined;
    engine.setRequestHandler('remember', (_p, ctx) => {
      kept = ctx;
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'remember' });
    await afterMicrotasks(20);
    expect(kept?.signal.aborted).toBe(false);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('aborts ctx.signal at once when extra.signal was already aborted before the handler read it', async () => {
    const { engine, transport, wire, inject } = await engineWithRawPeer();
    const gone = new AbortController();
    transport.extra = { signal: gone.signal };
    let release: () => void = () => {};
    let seen: unknown;
    engine.setRequestHandler('late', (_p, ctx) => {
      return new Promise((resolve) => {
        release = () => {
          seen = [ctx.signal.aborted, ctx.signal.reason];
          resolve({});
        };
      });
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'late' });
    gone.abort('stream closed');
    release();
    await afterMicrotasks(20);
    expect(seen).toEqual([true, 'stream closed']);
    // The context is aborted, so the engine answers nothing.
    expect(wire).toEqual([]);
  });

  it('end to end: the caller aborts, the handler sees its signal aborted', async () => {
    const { client, server, serverSent } = await enginePair();
    const aborted = new Promise<unknown>((resolve) => {
      server.setRequestHandler('slow', (_p, ctx) => {
        ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason));
        return new Promise(() => {});
      });
    });
    const controller = new AbortController();
    const pending = client.request({ method: 'slow' }, Empty, { signal: controller.signal });
    await afterMicrotasks(20);
    controller.abort(new Error('enough'));
    await expect(pending).rejects.toThrow('enough');
    expect(await aborted).toMatchObject({ name: 'AbortError', message: 'enough' });
    expect(serverSent).toEqual([]);
  });

  it('cancels requests a handler made through ctx.sendRequest when its own request is cancelled', async () => {
    const { client, server, serverSent } = await enginePair();
    client.setRequestHandler('sampling/createMessage', () => new Promise(() => {}));
    let nested: Promise<unknown> | undefined;
    server.setRequestHandler('tools/call', (_p, ctx) => {
      nested = ctx.sendRequest({ method: 'sampling/createMessage' }, Empty).catch((e: unknown) => e);
      return new Promise(() => {});
    });
    const controller = new AbortController();
    void client.request({ method: 'tools/call' }, Empty, { signal: controller.signal }).catch(() => {});
    await afterMicrotasks(20);
    const nestedRequest = serverSent[0]!;
    expect(nestedRequest).toEqual({
      message: {
        jsonrpc: '2.0',
        id: 1,
        method: 'sampling/createMessage',
        params: { _meta: { progressToken: 1 } },
      },
      options: expect.objectContaining({ relatedRequestId: 1 }),
    });
    controller.abort('stop');
    await afterMicrotasks(20);
    expect(await nested).toMatchObject({ name: 'AbortError' });
    expect(serverSent[1]).toEqual({
      message: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'stop' },
      },
      options: { relatedRequestId: 1 },
    });
    await client.close();
  });
});
