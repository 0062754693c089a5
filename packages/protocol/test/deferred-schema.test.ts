import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorCode, McpError } from '../src/errors.js';
import type { JSONRPCErrorResponse, JSONRPCResponse } from '../src/jsonrpc.js';
import { fastAccepts } from '../src/schemas/fast-check.js';
import { deferredSchema, isDeferredUnloaded, realSchema, schemaOrLoad } from '../src/schemas/lazy-schema.js';
import { safeParseDeferred } from '../src/schemas/deferred.js';
import { waitFor } from '@x/test-kit';
import { engineWithRawPeer } from './engine-helpers.js';

// Issue 30: a browser client must not download zod to validate everyday messages. A deferred schema
// answers with a zod-free check and loads its zod schema (a dynamic `import()` in the real handles of
// schemas/deferred.ts) only when a value fails the check.

const Named = z.looseObject({ name: z.string() });
const isNamed = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';

/** A deferred handle of `Named` whose loader is counted and can be made to fail. */
function counted(options: { failFirst?: boolean } = {}) {
  const loads = { count: 0 };
  let fail = options.failFirst === true;
  const schema = deferredSchema(async () => {
    loads.count += 1;
    // A loader settles later than the caller's turn, as a network fetch does.
    await new Promise((resolve) => setImmediate(resolve));
    if (fail) {
      fail = false;
      throw new Error('chunk fetch failed');
    }
    return Named;
  }, isNamed);
  return { schema, loads };
}

describe('deferredSchema', () => {
  it('answers values its check accepts without loading anything', () => {
    const { schema, loads } = counted();
    expect(fastAccepts(schema, { name: 'a' })).toBe(true);
    expect(fastAccepts(schema, { name: 1 })).toBe(false);
    expect(isDeferredUnloaded(schema)).toBe(true);
    expect(loads.count).toBe(0);
  });

  it('loads once for any number of waiting callers, then is the schema itself', async () => {
    const { schema, loads } = counted();
    const first = schemaOrLoad(schema);
    const second = schemaOrLoad(schema);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect(await first).toBe(Named);
    expect(loads.count).toBe(1);
    expect(isDeferredUnloaded(schema)).toBe(false);
    // Loaded: synchronous from now on, and the facade forwards like a lazy one.
    expect(schemaOrLoad(schema)).toBe(Named);
    expect(realSchema(schema)).toBe(Named);
    expect(schema.safeParse({ name: 2 }).success).toBe(false);
  });

  it('throws on synchronous use before it is loaded, saying how to read it', () => {
    const { schema } = counted();
    expect(() => schema.parse({ name: 'a' })).toThrow(
      /deferred schema is loaded on first use: read it with schemaOrLoad/,
    );
    expect(() => realSchema(schema)).toThrow(/schemaOrLoad/);
  });

  it('a failed load rejects its callers and is tried again by the next one', async () => {
    const { schema, loads } = counted({ failFirst: true });
    await expect(schemaOrLoad(schema)).rejects.toThrow('chunk fetch failed');
    expect(isDeferredUnloaded(schema)).toBe(true);
    expect(await schemaOrLoad(schema)).toBe(Named);
    expect(loads.count).toBe(2);
  });

  it('safeParseDeferred: the value as is when the check passes, the schema verdict otherwise', async () => {
    const { schema, loads } = counted();
    const value = { name: 'a', extra: [1] };
    const passed = await safeParseDeferred(schema, value);
    expect(passed).toEqual({ success: true, data: value });
    expect(passed.success && passed.data).toBe(value);
    expect(loads.count).toBe(0);
    const failed = await safeParseDeferred(schema, { name: 3 });
    expect(failed.success).toBe(false);
    expect(loads.count).toBe(1);
  });
});

describe('the engine with deferred schemas', () => {
  it('a result its check accepts settles at once; one it refuses waits for the schema, then fails with -32603 naming the issue', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const { schema, loads } = counted();

    const good = engine.request({ method: 'x/get' }, schema);
    await waitFor(() => wire.length === 1);
    await inject({ jsonrpc: '2.0', id: (wire[0] as { id: number }).id, result: { name: 'a' } });
    expect(await good).toEqual({ name: 'a' });
    expect(loads.count).toBe(0);

    const bad = engine.request({ method: 'x/get' }, schema);
    const badOutcome = bad.then(
      () => undefined,
      (error: unknown) => error,
    );
    await waitFor(() => wire.length === 2);
    await inject({ jsonrpc: '2.0', id: (wire[1] as { id: number }).id, result: { name: 42 } });
    const error = await badOutcome;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InternalError);
    expect((error as McpError).message).toMatch(/Invalid result for x\/get.*name/);
    expect(loads.count).toBe(1);
  });

  it('a result the check refuses but the schema accepts resolves with what the schema returns', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    // The check vouches only for `{ name }` without extra keys; the schema (loose) takes extras.
    const schema = deferredSchema(
      async () => Named,
      (value) => isNamed(value) && Object.keys(value as object).length === 1,
    );
    const pending = engine.request({ method: 'x/get' }, schema);
    await waitFor(() => wire.length === 1);
    await inject({ jsonrpc: '2.0', id: (wire[0] as { id: number }).id, result: { name: 'a', more: true } });
    expect(await pending).toEqual({ name: 'a', more: true });
  });

  it('a failed schema load rejects the request with the load error, and the engine keeps working', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const { schema } = counted({ failFirst: true });
    const first = engine.request({ method: 'x/get' }, schema).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await waitFor(() => wire.length === 1);
    await inject({ jsonrpc: '2.0', id: (wire[0] as { id: number }).id, result: { name: 1 } });
    expect(await first).toBe('chunk fetch failed');
    const second = engine.request({ method: 'x/get' }, schema);
    await waitFor(() => wire.length === 2);
    await inject({ jsonrpc: '2.0', id: (wire[1] as { id: number }).id, result: { name: 'b' } });
    expect(await second).toEqual({ name: 'b' });
  });

  it('request and notification params: checked ones reach the handler at once, refused ones after the load (-32602 when invalid)', async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const request = counted();
    const notification = counted();
    const seen: unknown[] = [];
    engine.setRequestHandler('x/greet', request.schema, (params) => ({ text: `hi ${params.name}` }));
    engine.setNotificationHandler('x/named', notification.schema, (params) => {
      seen.push(params);
    });

    await inject({ jsonrpc: '2.0', id: 1, method: 'x/greet', params: { name: 'Ada' } });
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 1, result: { text: 'hi Ada' } }]);
    expect(request.loads.count).toBe(0);

    await inject({ jsonrpc: '2.0', id: 2, method: 'x/greet', params: { name: 7 } });
    await waitFor(() => wire.length === 2);
    const refused = wire[1] as JSONRPCErrorResponse;
    expect(refused.id).toBe(2);
    expect(refused.error.code).toBe(ErrorCode.InvalidParams);
    expect(refused.error.message).toMatch(/Invalid params for x\/greet/);
    expect(request.loads.count).toBe(1);

    await inject({ jsonrpc: '2.0', method: 'x/named', params: { name: 'Bo' } });
    expect(seen).toEqual([{ name: 'Bo' }]);
    expect(notification.loads.count).toBe(0);
    await inject({ jsonrpc: '2.0', method: 'x/named', params: { name: false } });
    await waitFor(() => notification.loads.count === 1);
    // Invalid params of a notification are dropped (nothing to answer), after the load.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ name: 'Bo' }]);
    // Valid but refused by the check: delivered once the schema is there.
    const loose = deferredSchema(
      async () => Named,
      () => false,
    );
    engine.setNotificationHandler('x/loose', loose, (params) => {
      seen.push(params);
    });
    await inject({ jsonrpc: '2.0', method: 'x/loose', params: { name: 'Cy' } });
    await waitFor(() => seen.length === 2);
    expect(seen[1]).toEqual({ name: 'Cy' });
    expect((wire as JSONRPCResponse[]).length).toBe(2);
  });
});
