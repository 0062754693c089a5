import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as protocol from '@x/protocol';
import { fastAccepts } from '@x/protocol/internal';
import { isSchemaBuilt, lazySchema, realSchema } from '../src/schemas/lazy-schema.js';
import type { JSONRPCErrorResponse } from '../src/jsonrpc.js';
import { engineWithRawPeer } from './engine-helpers.js';

describe('lazySchema', () => {
  const counted = () => {
    const calls = { count: 0 };
    const schema = lazySchema(() => {
      calls.count += 1;
      return z.looseObject({ name: z.string(), size: z.number().optional() });
    });
    return { schema, calls };
  };

  it('builds on first read, once', () => {
    const { schema, calls } = counted();
    expect(calls.count).toBe(0);
    expect(isSchemaBuilt(schema)).toBe(false);
    expect(schema.parse({ name: 'a', extra: 1 })).toEqual({ name: 'a', extra: 1 });
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
    expect(calls.count).toBe(1);
    expect(isSchemaBuilt(schema)).toBe(true);
  });

  it('behaves as the schema it builds: shape, extend, instanceof, composition, JSON Schema, keys', () => {
    const { schema } = counted();
    const real = realSchema(schema);
    expect(types.isProxy(schema)).toBe(true);
    expect(types.isProxy(real)).toBe(false);
    expect(realSchema(schema)).toBe(real);
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(schema.shape)).toEqual(['name', 'size']);
    expect(schema.extend({ tag: z.literal('x') }).parse({ name: 'a', tag: 'x' })).toEqual({
      name: 'a',
      tag: 'x',
    });
    expect(() => schema.extend({ tag: z.literal('x') }).parse({ name: 'a', tag: 'y' })).toThrow();
    expect(z.object({ inner: schema }).parse({ inner: { name: 'b' } })).toEqual({ inner: { name: 'b' } });
    expect(z.array(schema.optional()).safeParse([{ name: 1 }]).success).toBe(false);
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(real));
    expect(Object.keys(schema)).toEqual(Object.keys(real));
    expect('_zod' in schema).toBe(true);
    expect(Object.getOwnPropertyDescriptor(schema, '_zod')?.value).toBe(real._zod);
  });

  it('refuses to be frozen and stays usable', () => {
    const { schema } = counted();
    expect(() => Object.freeze(schema)).toThrow(TypeError);
    expect(Object.keys(schema)).toEqual(Object.keys(realSchema(schema)));
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
  });

  it('hands back anything that is not a facade as is', () => {
    const plain = z.string();
    expect(realSchema(plain)).toBe(plain);
    expect(realSchema(undefined)).toBeUndefined();
    expect(isSchemaBuilt(plain)).toBe(true);
  });

  it("registered as a handler's params schema, builds on its method's first message, not at registration", async () => {
    const { engine, wire, inject } = await engineWithRawPeer();
    const request = counted();
    const notification = counted();
    const seen: unknown[] = [];
    engine.setRequestHandler('size/get', request.schema, (params) => ({ size: params.size ?? 0 }));
    engine.setNotificationHandler('size/changed', notification.schema, (params) => {
      seen.push(params);
    });
    expect([request.calls.count, notification.calls.count]).toEqual([0, 0]);

    await inject({ jsonrpc: '2.0', id: 1, method: 'size/get', params: { name: 'a', size: 3 } });
    await inject({ jsonrpc: '2.0', id: 2, method: 'size/get', params: { name: 7 } });
    expect(wire[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { size: 3 } });
    expect((wire[1] as JSONRPCErrorResponse).error.code).toBe(-32602);
    expect([request.calls.count, notification.calls.count]).toEqual([1, 0]);

    await inject({ jsonrpc: '2.0', method: 'size/changed', params: { name: 'b', extra: true } });
    expect(seen).toEqual([{ name: 'b', extra: true }]);
    expect(notification.calls.count).toBe(1);
  });

  it('refuses a schema that reads itself while being built', () => {
    const loop: z.ZodType = lazySchema(() => z.array(realSchema(loop)));
    expect(() => loop.parse([])).toThrow(/being built/);
  });
});

describe('@x/protocol schemas', () => {
  const facades = (Object.entries(protocol) as [string, unknown][]).flatMap(([name, value]) =>
    name.endsWith('Schema') && types.isProxy(value) ? [[name, value as object] as const] : [],
  );

  it('are facades that importing the package does not build', () => {
    expect(facades.length).toBeGreaterThan(150);
    expect(facades.filter(([, schema]) => isSchemaBuilt(schema)).map(([name]) => name)).toEqual([]);
  });

  it('build what they are made of, and only that, when first read', () => {
    expect(protocol.CallToolRequestParamsSchema.parse({ name: 'echo', arguments: {} })).toEqual({
      name: 'echo',
      arguments: {},
    });
    expect(isSchemaBuilt(protocol.CallToolRequestParamsSchema)).toBe(true);
    expect(isSchemaBuilt(protocol.RequestParamsSchema)).toBe(true); // its base
    expect(isSchemaBuilt(protocol.ListPromptsResultSchema)).toBe(false);
    expect(isSchemaBuilt(protocol.ReadResourceResultSchema)).toBe(false);
  });

  it('work where zod takes schemas: JSON Schema, discriminated unions, describe/meta clones', () => {
    const json = z.toJSONSchema(protocol.CallToolResultSchema, { unrepresentable: 'any' });
    expect(json).toEqual(
      z.toJSONSchema(realSchema(protocol.CallToolResultSchema), { unrepresentable: 'any' }),
    );
    expect(json.required).toContain('content');
    const block = z.discriminatedUnion('type', [protocol.TextContentSchema, protocol.ImageContentSchema]);
    expect(block.parse({ type: 'text', text: 'x' })).toEqual({ type: 'text', text: 'x' });
    expect(block.safeParse({ type: 'audio', data: '', mimeType: 'audio/wav' }).success).toBe(false);
    expect(protocol.ToolSchema.describe('a tool').description).toBe('a tool');
    expect(protocol.ToolSchema.description).toBeUndefined();
  });

  it('the method maps and fast checks see through the facades', () => {
    const entry = protocol.clientRequestSchemas['tools/call'];
    expect(realSchema(entry.result)).toBe(realSchema(protocol.CallToolResultSchema));
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    expect(fastAccepts(protocol.CallToolResultSchema, plain)).toBe(true);
    expect(fastAccepts(realSchema(protocol.CallToolResultSchema), plain)).toBe(true);
  });
});
