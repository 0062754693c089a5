import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { JSONRPCRequest } from '../src/jsonrpc.js';
import type { ProgressUpdate, RequestContext } from '../src/engine/index.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Empty = z.object({});

describe('engine: progress (outgoing requests)', () => {
  it('adds _meta.progressToken (the request id) without mutating the caller params', async () => {
    const { engine, wire } = await engineWithRawPeer();
    const params = Object.freeze({ name: 'tool', _meta: Object.freeze({ 'x.dev/trace': 'abc' }) });
    void engine.request({ method: 'tools/call', params }, Empty, { onprogress: () => {} }).catch(() => {});
    void engine.request({ method: 'tools/list' }, Empty, { onprogress: () => {} }).catch(() => {});
    await afterMicrotasks(20);
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'tool', _meta: { 'x.dev/trace': 'abc', progressToken: 1 } },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 2 } } },
    ]);
    expect(params).toEqual({ name: 'tool', _meta: { 'x.dev/trace': 'abc' } });
    await engine.close();
  });

  it('copies an own "__proto__" key of the params (from JSON.parse) as data, never as the prototype', async () => {
    const { engine, sent } = await engineWithRawPeer();
    const params = JSON.parse('{"a":1,"__proto__":{"polluted":true},"_meta":{"__proto__":{"x":1}}}');
    void engine.request({ method: 'x', params }, Empty, { onprogress: () => {} }).catch(() => {});
    const out = (sent[0]!.message as JSONRPCRequest).params as Record<string, unknown>;
    const meta = out['_meta'] as Record<string, unknown>;
    expect([Object.getPrototypeOf(out), Object.getPrototypeOf(meta)]).toEqual([
      Object.prototype,
      Object.prototype,
    ]);
    expect([Object.hasOwn(out, '__proto__'), Object.hasOwn(meta, '__proto__')]).toEqual([true, true]);
    expect([out['a'], meta['progressToken'], (out as { polluted?: unknown }).polluted]).toEqual([
      1,
      1,
      undefined,
    ]);
    await engine.close();
  });

  it('leaves params untouched (same object) when no progress is asked for', async () => {
    const { engine, sent } = await engineWithRawPeer();
    const params = { a: 1 };
    void engine.request({ method: 'x', params }, Empty, { resetTimeoutOnProgress: false }).catch(() => {});
    expect((sent[0]!.message as JSONRPCRequest).params).toBe(params);
    await engine.close();
  });

  it('routes progress notifications for its token to the callback', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const updates: ProgressUpdate[] = [];
    const pending = engine.request({ method: 'x' }, Empty, { onprogress: (u) => updates.push(u) });
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1, total: 3 },
    });
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 2, total: 3, message: 'two' },
    });
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    await pending;
    expect(updates).toEqual([
      { progressToken: 1, progress: 1, total: 3 },
      { progressToken: 1, progress: 2, total: 3, message: 'two' },
    ]);
  });

  it('reports unknown tokens to onerror, ignores stale ones and malformed params, never crashes', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    const onprogress = vi.fn();
    const done = engine.request({ method: 'x' }, Empty, { onprogress });
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    await done;
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 5 },
    });
    expect(errors).toEqual([]);
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'zzz', progress: 5 },
    });
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 77, progress: 5 },
    });
    await inject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 'lots' } });
    expect(errors.map((e) => e.message)).toEqual([
      'Received progress for an unknown token: zzz',
      'Received progress for an unknown token: 77',
    ]);
    expect(onprogress).not.toHaveBeenCalled();
  });

  it('reports a throwing progress callback to onerror and still resolves the request', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    const pending = engine.request({ method: 'x' }, Empty, {
      onprogress: () => {
        throw new Error('callback broke');
      },
    });
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    await inject({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(pending).resolves.toEqual({});
    expect(errors.map((e) => e.message)).toEqual(['callback broke']);
  });

  it('calls a registered notifications/progress handler after routing (e.g. for logging)', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const onprogress = vi.fn();
    const observer = vi.fn();
    engine.setNotificationHandler('notifications/progress', observer);
    void engine.request({ method: 'x' }, Empty, { onprogress }).catch(() => {});
    await inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    expect(onprogress).toHaveBeenCalledTimes(1);
    expect(observer).toHaveBeenCalledWith({ progressToken: 1, progress: 1 }, undefined);
    await engine.close();
  });
});

describe('engine: progress (inside handlers)', () => {
  it('ctx.sendProgress sends notifications/progress with the request token and relatedRequestId', async () => {
    const { engine, sent, inject } = await engineWithRawPeer();
    engine.setRequestHandler('work', async (_params, ctx) => {
      await ctx.sendProgress({ progress: 1, total: 2 });
      await ctx.sendProgress({ progress: 2, total: 2, message: 'done' });
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 'r1', method: 'work', params: { _meta: { progressToken: 'tok' } } });
    expect(sent).toEqual([
      {
        message: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 1, total: 2 },
        },
        options: { relatedRequestId: 'r1' },
      },
      {
        message: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 2, total: 2, message: 'done' },
        },
        options: { relatedRequestId: 'r1' },
      },
      {
        message: { jsonrpc: '2.0', id: 'r1', result: {} },
        options: { relatedRequestId: 'r1', priority: 'normal' },
      },
    ]);
  });

  it('ctx.sendProgress is a no-op when the request carried no progress token', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    let ctxSeen: RequestContext | undefined;
    engine.setRequestHandler('work', async (_params, ctx) => {
      ctxSeen = ctx;
      await ctx.sendProgress({ progress: 1 });
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'work' });
    expect(ctxSeen?.progressToken).toBeUndefined();
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('round-trips between two engines', async () => {
    const { client, server } = await enginePair();
    server.setRequestHandler('count', z.object({ to: z.number() }), async ({ to }, ctx) => {
      for (let i = 1; i <= to; i++) await ctx.sendProgress({ progress: i, total: to });
      return { counted: to };
    });
    const seen: number[] = [];
    const result = await client.request(
      { method: 'count', params: { to: 3 } },
      z.object({ counted: z.number() }),
      {
        onprogress: ({ progress }) => seen.push(progress),
      },
    );
    expect(result).toEqual({ counted: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });
});
