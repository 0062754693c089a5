import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ErrorCode, McpError } from '../src/errors.js';
import type { JSONRPCErrorResponse } from '../src/jsonrpc.js';
import { Protocol } from '../src/engine/index.js';
import { enginePair, engineWithRawPeer } from './engine-helpers.js';
import { afterMicrotasks } from '@x/test-kit';

const Greet = z.object({ name: z.string(), times: z.number().int().default(1) });

describe('engine: request handlers', () => {
  it('passes schema-validated (parsed) params to a typed handler and answers with its result', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('greet', Greet, (params) => ({
      text: `hi ${params.name}`.repeat(params.times),
    }));
    await inject({ jsonrpc: '2.0', id: 'a', method: 'greet', params: { name: 'x' } });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 'a', result: { text: 'hi x' } }]);
  });

  it('answers params that fail the schema with -32602 and a short readable message, without running the handler', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const handler = vi.fn(() => ({}));
    engine.setRequestHandler('greet', Greet, handler);
    await inject({ jsonrpc: '2.0', id: 1, method: 'greet', params: { name: 5, times: 'x' } });
    expect(handler).not.toHaveBeenCalled();
    const error = (wire[0] as JSONRPCErrorResponse).error;
    expect(error).toEqual({
      code: ErrorCode.InvalidParams,
      message:
        'Invalid params for greet: name: Invalid input: expected string, received number; ' +
        'times: Invalid input: expected number, received string',
    });
  });

  it('caps the invalid-params message at three issues', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler(
      'many',
      z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() }),
      () => ({}),
    );
    await inject({ jsonrpc: '2.0', id: 1, method: 'many', params: {} });
    const { message } = (wire[0] as JSONRPCErrorResponse).error;
    expect(message).toMatch(/^Invalid params for many: a: .*; b: .*; c: .* \(\+2 more\)$/);
    expect(message.length).toBeLessThan(250);
  });

  it('treats absent params as {} so optional-params methods validate', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('list', z.object({ cursor: z.string().optional() }), (params) => ({
      got: params,
    }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'list' });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: { got: {} } }]);
  });

  it('answers an unknown method with -32601', async () => {
    const { wire, inject } = await engineWithRawPeer();
    await inject({ jsonrpc: '2.0', id: 3, method: 'nope' });
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: ErrorCode.MethodNotFound, message: 'Method not found: nope' } },
    ]);
  });

  it('sends an McpError thrown by a handler as is (code, message, data)', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('fail', () => {
      throw new McpError(ErrorCode.ResourceNotFound, 'Resource not found', { uri: 'file:///x' });
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'fail' });
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'file:///x' } },
      },
    ]);
  });

  it('maps any other exception to -32603 with its message and never a stack', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('boom', async () => {
      throw new TypeError('cannot read x of undefined');
    });
    engine.setRequestHandler('throw-string', () => {
      throw 'just a string';
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'boom' });
    await inject({ jsonrpc: '2.0', id: 2, method: 'throw-string' });
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: ErrorCode.InternalError, message: 'cannot read x of undefined' },
      },
      { jsonrpc: '2.0', id: 2, error: { code: ErrorCode.InternalError, message: 'Internal error' } },
    ]);
    expect(JSON.stringify(wire)).not.toContain('at ');
  });

  it('answers -32603 when a handler resolves to something that is not a result object', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('bad', () => [1, 2] as unknown as object);
    await inject({ jsonrpc: '2.0', id: 1, method: 'bad' });
    expect((wire[0] as JSONRPCErrorResponse).error).toEqual({
      code: ErrorCode.InternalError,
      message: 'Handler for bad returned no result object',
    });
  });

  it('replaces and removes handlers', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('m', () => ({ v: 1 }));
    engine.setRequestHandler('m', () => ({ v: 2 }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'm' });
    expect(engine.removeRequestHandler('m')).toBe(true);
    expect(engine.hasRequestHandler('m')).toBe(false);
    await inject({ jsonrpc: '2.0', id: 2, method: 'm' });
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, result: { v: 2 } },
      { jsonrpc: '2.0', id: 2, error: { code: ErrorCode.MethodNotFound, message: 'Method not found: m' } },
    ]);
  });

  it('routes unregistered methods to the fallback request handler with the raw request', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.fallbackRequestHandler = (request, ctx) => ({
      echoed: request.method,
      params: request.params ?? null,
      id: ctx.requestId,
    });
    engine.setRequestHandler('known', () => ({ known: true }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'x/custom', params: { a: 1 } });
    await inject({ jsonrpc: '2.0', id: 2, method: 'known' });
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, result: { echoed: 'x/custom', params: { a: 1 }, id: 1 } },
      { jsonrpc: '2.0', id: 2, result: { known: true } },
    ]);
  });

  it('calls both fallbacks with the engine as `this`, so one function can serve every instance', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const seen: unknown[] = [];
    engine.fallbackRequestHandler = function (this: unknown) {
      seen.push(this);
      return {};
    };
    engine.fallbackNotificationHandler = function (this: unknown) {
      seen.push(this);
    };
    await inject({ jsonrpc: '2.0', id: 1, method: 'x/custom' });
    await inject({ jsonrpc: '2.0', method: 'x/note' });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(engine);
    expect(seen[1]).toBe(engine);
  });

  it('runs a custom method end to end with its own params and result schemas', async () => {
    const { client, server } = await enginePair();
    const AddParams = z.object({ a: z.number(), b: z.number() });
    const AddResult = z.object({ sum: z.number() });
    server.setRequestHandler('math/add', AddParams, ({ a, b }) => ({ sum: a + b }));
    const result: { sum: number } = await client.request(
      { method: 'math/add', params: { a: 2, b: 3 } },
      AddResult,
    );
    expect(result).toEqual({ sum: 5 });
  });
});

describe('engine: duplicate ids', () => {
  it('answers a request reusing the id of a running one with -32600 and leaves the first undisturbed', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    let calls = 0;
    let finish: () => void = () => {};
    engine.setRequestHandler('slow', () => {
      calls++;
      return new Promise((resolve) => (finish = () => resolve({ first: true })));
    });
    await inject({ jsonrpc: '2.0', id: 5, method: 'slow' });
    await inject({ jsonrpc: '2.0', id: 5, method: 'slow' });
    // Also when the duplicate names a method nobody handles: its answer must say "duplicate".
    await inject({ jsonrpc: '2.0', id: 5, method: 'no/such' });
    expect(wire).toEqual([
      {
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'Duplicate request id 5: a request with this id is still in flight',
        },
      },
      {
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'Duplicate request id 5: a request with this id is still in flight',
        },
      },
    ]);
    finish();
    await afterMicrotasks(20);
    expect(calls).toBe(1);
    expect(wire.slice(2)).toEqual([{ jsonrpc: '2.0', id: 5, result: { first: true } }]);
    expect(engine.activeRequestCount).toBe(0);
    // Once answered, the id is free again.
    await inject({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(wire.slice(3)).toEqual([{ jsonrpc: '2.0', id: 5, result: {} }]);
  });

  it('quotes a string id and cuts a huge one', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('slow', () => new Promise(() => {}));
    const huge = 'x'.repeat(100_000);
    for (const id of ['abc', huge]) {
      await inject({ jsonrpc: '2.0', id, method: 'slow' });
      await inject({ jsonrpc: '2.0', id, method: 'slow' });
    }
    const messages = wire.map((m) => ('error' in m ? m.error.message : ''));
    expect(messages[0]).toBe('Duplicate request id abc: a request with this id is still in flight');
    expect(messages[1]!.length).toBeLessThan(200);
    expect(messages[1]).toContain('(100000 characters)');
  });
});

describe('engine: responses JSON cannot encode', () => {
  /** An engine whose transport serializes as a wire transport does (and fails as they do). */
  async function serializingEngine() {
    const setup = await engineWithRawPeer();
    const { transport } = setup;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      let copy: typeof message;
      try {
        copy = JSON.parse(JSON.stringify(message));
      } catch (error) {
        return Promise.reject(error);
      }
      return send(copy, options);
    };
    return setup;
  }

  it('answers -32603 naming the method when the result holds a BigInt or a cycle', async () => {
    const { engine, wire, errors, inject } = await serializingEngine();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    engine.setRequestHandler('tools/call', () => ({ big: 1n }));
    engine.setRequestHandler('x/cycle', async () => cyclic);
    await inject({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    await inject({ jsonrpc: '2.0', id: 2, method: 'x/cycle' });
    expect(wire).toHaveLength(2);
    expect(wire[0]).toMatchObject({ id: 1, error: { code: ErrorCode.InternalError } });
    expect((wire[0] as { error: { message: string } }).error.message).toMatch(
      /^Result of tools\/call could not be serialized: .*BigInt/,
    );
    expect(wire[1]).toMatchObject({ id: 2, error: { code: ErrorCode.InternalError } });
    expect((wire[1] as { error: { message: string } }).error.message).toMatch(
      /^Result of x\/cycle could not be serialized: .*circular/i,
    );
    // The author still hears about it.
    expect(errors).toHaveLength(2);
  });

  it('answers -32603 when a thrown error carries data JSON cannot encode', async () => {
    const { engine, wire, inject } = await serializingEngine();
    engine.setRequestHandler('x/fail', () => {
      throw new McpError(ErrorCode.InvalidParams, 'bad', { n: 1n });
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'x/fail' });
    expect(wire).toHaveLength(1);
    expect((wire[0] as { error: { message: string } }).error.message).toMatch(
      /^Error response to x\/fail could not be serialized/,
    );
  });

  it('answers a synchronous throw from send() the same way', async () => {
    const { engine, transport, wire, inject } = await engineWithRawPeer();
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(JSON.parse(JSON.stringify(message)), options);
    engine.setRequestHandler('tools/call', () => ({ big: 2n }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    expect(wire).toMatchObject([{ id: 1, error: { code: ErrorCode.InternalError } }]);
  });

  it('does not loop when the replacement fails too, nor answer a failure that is not about JSON', async () => {
    const { engine, transport, errors, inject } = await engineWithRawPeer();
    let sends = 0;
    transport.send = () => {
      sends++;
      return Promise.reject(new TypeError('the stream went away'));
    };
    engine.setRequestHandler('x/ok', () => ({ fine: true }));
    engine.setRequestHandler('x/big', () => ({ big: 1n }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'x/ok' });
    expect(sends).toBe(1); // encodes fine: the failure is the transport's, nothing to replace
    await inject({ jsonrpc: '2.0', id: 2, method: 'x/big' });
    expect(sends).toBe(3); // the result, then one replacement, and no more
    expect(errors.map((e) => e.message)).toEqual([
      'the stream went away',
      'the stream went away',
      'the stream went away',
    ]);
  });

  it('over the in-memory transport (no serialization) the result arrives as is, answered once', async () => {
    const { client, server } = await enginePair();
    server.setRequestHandler('x/big', () => ({ big: 3n }));
    await expect(client.request({ method: 'x/big' }, z.object({ big: z.bigint() }))).resolves.toEqual({
      big: 3n,
    });
  });
});

describe('engine: ping', () => {
  it('answers ping with {} by default', async () => {
    const { wire, inject } = await engineWithRawPeer();
    await inject({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('does not answer ping when turned off (modern era), or when removed', async () => {
    const off = await engineWithRawPeer(new Protocol({ ping: false }));
    await off.inject({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((off.wire[0] as JSONRPCErrorResponse).error.code).toBe(ErrorCode.MethodNotFound);
    const removed = await engineWithRawPeer();
    removed.engine.removeRequestHandler('ping');
    await removed.inject({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((removed.wire[0] as JSONRPCErrorResponse).error.code).toBe(ErrorCode.MethodNotFound);
  });

  it('can be overridden', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('ping', () => ({ pong: true }));
    await inject({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: { pong: true } }]);
  });
});

describe('engine: notification handlers', () => {
  it('validates params and calls the handler with parsed params and the transport extra', async () => {
    const { engine, transport, inject } = await engineWithRawPeer();
    transport.extra = { authInfo: { token: 't', clientId: 'c', scopes: [] } };
    const seen: unknown[] = [];
    engine.setNotificationHandler(
      'notifications/message',
      z.object({ level: z.enum(['info', 'error']) }),
      (params, extra) => {
        seen.push(params.level, extra?.authInfo?.clientId);
      },
    );
    await inject({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', other: 1 } });
    expect(seen).toEqual(['info', 'c']);
  });

  it('reports invalid notification params to onerror without calling the handler', async () => {
    const { engine, errors, inject, wire } = await engineWithRawPeer();
    const handler = vi.fn();
    engine.setNotificationHandler('n', z.object({ x: z.string() }), handler);
    await inject({ jsonrpc: '2.0', method: 'n', params: { x: 1 } });
    expect(handler).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid params for n: x: Invalid input: expected string, received number',
    });
    expect(wire).toEqual([]);
  });

  it('reports handlers that throw or reject to onerror', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    engine.setNotificationHandler('sync', () => {
      throw new Error('sync boom');
    });
    engine.setNotificationHandler('async', async () => {
      throw new Error('async boom');
    });
    await inject({ jsonrpc: '2.0', method: 'sync' });
    await inject({ jsonrpc: '2.0', method: 'async' });
    expect(errors.map((e) => e.message)).toEqual(['sync boom', 'async boom']);
  });

  it('routes unknown notifications to the fallback, and drops them silently without one', async () => {
    const { engine, errors, inject } = await engineWithRawPeer();
    await inject({ jsonrpc: '2.0', method: 'unheard/of' });
    expect(errors).toEqual([]);
    const fallback = vi.fn();
    engine.fallbackNotificationHandler = fallback;
    await inject({ jsonrpc: '2.0', method: 'unheard/of', params: { a: 1 } });
    expect(fallback).toHaveBeenCalledWith(
      { jsonrpc: '2.0', method: 'unheard/of', params: { a: 1 } },
      undefined,
    );
  });

  it('replaces and removes notification handlers', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const first = vi.fn();
    const second = vi.fn();
    engine.setNotificationHandler('n', first);
    engine.setNotificationHandler('n', second);
    await inject({ jsonrpc: '2.0', method: 'n' });
    expect(engine.removeNotificationHandler('n')).toBe(true);
    await inject({ jsonrpc: '2.0', method: 'n' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('sends notifications with params as given', async () => {
    const { engine, wire } = await engineWithRawPeer();
    await engine.notification({ method: 'notifications/initialized' });
    await engine.notification({ method: 'notifications/message', params: { level: 'info', data: 'x' } });
    await afterMicrotasks(20);
    expect(wire).toEqual([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
  });
});

describe('engine: onmessage never throws', () => {
  it('turns a throwing onerror, fallback or handler into nothing worse than a report', async () => {
    const { engine, transport } = await engineWithRawPeer();
    engine.onerror = () => {
      throw new Error('onerror itself throws');
    };
    engine.fallbackNotificationHandler = () => {
      throw new Error('fallback throws');
    };
    expect(() => transport.onmessage?.({ jsonrpc: '2.0', method: 'x' })).not.toThrow();
    expect(() => transport.onmessage?.({ jsonrpc: '2.0', id: 42, result: {} })).not.toThrow();
    expect(() =>
      transport.onmessage?.({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'm' } }),
    ).not.toThrow();
  });
});

describe('engine: handlers that answer synchronously', () => {
  it('sends the response of a synchronous handler in the same turn as the request arrived', async () => {
    const { engine, transport, sent } = await engineWithRawPeer();
    engine.setRequestHandler('now', () => ({ at: 1 }));
    // Deliver by hand (no microtask hop in between): the answer is on its way before this returns.
    transport.onmessage?.({ jsonrpc: '2.0', id: 7, method: 'now' });
    expect(sent.map((s) => s.message)).toEqual([{ jsonrpc: '2.0', id: 7, result: { at: 1 } }]);
    expect(sent[0]?.options).toEqual({ relatedRequestId: 7, priority: 'normal' });
  });

  it('keeps a notification a synchronous handler sent (unawaited) ahead of its response', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('work', (_params, ctx) => {
      void ctx.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'x' } });
      return {};
    });
    await inject({ jsonrpc: '2.0', id: 1, method: 'work' });
    expect(wire.map((m) => ('method' in m ? m.method : `response ${String(m.id)}`))).toEqual([
      'notifications/message',
      'response 1',
    ]);
  });

  it('answers a synchronous throw and a non-object result like their asynchronous forms', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    engine.setRequestHandler('boom', () => {
      throw new McpError(ErrorCode.InvalidParams, 'no');
    });
    engine.setRequestHandler('nothing', () => 5 as unknown as Record<string, unknown>);
    await inject({ jsonrpc: '2.0', id: 1, method: 'boom' });
    await inject({ jsonrpc: '2.0', id: 2, method: 'nothing' });
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: ErrorCode.InvalidParams, message: 'no' } },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: ErrorCode.InternalError, message: 'Handler for nothing returned no result object' },
      },
    ]);
  });

  it('awaits a thenable that is not a native promise, and its rejection becomes the error response', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const thenable = (settle: (ok: (v: unknown) => void, fail: (e: unknown) => void) => void) =>
      // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a native promise is the point
      ({ then: (ok: (v: unknown) => void, fail: (e: unknown) => void) => settle(ok, fail) }) as never;
    engine.setRequestHandler('ok', () => thenable((ok) => ok({ via: 'thenable' })));
    engine.setRequestHandler('bad', () => thenable((_ok, fail) => fail(new McpError(-32001, 'later'))));
    await inject({ jsonrpc: '2.0', id: 1, method: 'ok' });
    await inject({ jsonrpc: '2.0', id: 2, method: 'bad' });
    expect(wire).toEqual([
      { jsonrpc: '2.0', id: 1, result: { via: 'thenable' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'later' } },
    ]);
  });

  it('reports a transport that fails to send a response to onerror, and one that throws synchronously too', async () => {
    const { engine, transport, errors, inject } = await engineWithRawPeer();
    engine.setRequestHandler('x', () => ({}));
    let mode: 'reject' | 'throw' = 'reject';
    transport.send = () => {
      if (mode === 'throw') throw new Error('sync send failure');
      return Promise.reject(new Error('async send failure'));
    };
    await inject({ jsonrpc: '2.0', id: 1, method: 'x' });
    mode = 'throw';
    transport.onmessage?.({ jsonrpc: '2.0', id: 2, method: 'x' });
    await afterMicrotasks(20);
    expect(errors.map((e) => e.message)).toEqual(['async send failure', 'sync send failure']);
  });
});

describe.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
  'engine: a wire name that is an Object.prototype property (%s)',
  (name) => {
    it('is an unknown method, an ignored notification, an unknown id and an unknown token', async () => {
      const { wire, errors, inject } = await engineWithRawPeer();
      await inject({ jsonrpc: '2.0', id: 1, method: name });
      expect(wire).toEqual([
        {
          jsonrpc: '2.0',
          id: 1,
          error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${name}` },
        },
      ]);
      await inject({ jsonrpc: '2.0', method: name });
      await inject({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: name } });
      await inject({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: name, progress: 1 },
      });
      await inject({ jsonrpc: '2.0', id: name, result: {} });
      expect(errors.map((e) => e.message)).toEqual([
        `Received progress for an unknown token: ${name}`,
        `Received a response for an unknown request id: ${name}`,
      ]);
      await inject({ jsonrpc: '2.0', id: name, method: 'ping' });
      expect(wire[1]).toEqual({ jsonrpc: '2.0', id: name, result: {} });
    });
  },
);
