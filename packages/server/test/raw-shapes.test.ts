import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../src/index.js';
import { connect, initialize } from './helpers.js';

// Issue #25 item 6: a v1-style raw zod shape (`inputSchema: { text: z.string() }`, what the official
// SDK accepts) used to be refused with 'inputSchema must be a JSON Schema of type "object"'.

function textOf(result: Record<string, unknown>): string {
  return (result['content'] as Array<{ text: string }>)[0]!.text;
}

describe('raw zod shapes and Standard Schemas for inputSchema/outputSchema', () => {
  it('accepts a raw zod 4 shape for inputSchema and outputSchema, publishes object schemas, validates', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'repeat',
      {
        inputSchema: { text: z.string().min(1), times: z.number().int().optional() },
        outputSchema: { out: z.string() },
      },
      ({ text, times }) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        expectTypeOf(times).toEqualTypeOf<number | undefined>();
        const out = text.repeat(times ?? 1);
        return { content: [{ type: 'text', text: out }], structuredContent: { out } };
      },
    );
    const wire = await connect(server);
    await initialize(wire);
    const { tools } = (await wire.call('tools/list')) as { tools: Array<Record<string, unknown>> };
    expect(tools[0]).toEqual({
      name: 'repeat',
      inputSchema: {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1 },
          times: { type: 'integer', maximum: expect.any(Number), minimum: expect.any(Number) },
        },
        required: ['text'],
      },
      outputSchema: { type: 'object', properties: { out: { type: 'string' } }, required: ['out'] },
    });
    await expect(
      wire.call('tools/call', { name: 'repeat', arguments: { text: 'ab', times: 2 } }),
    ).resolves.toEqual({
      content: [{ type: 'text', text: 'abab' }],
      structuredContent: { out: 'abab' },
    });
    await expect(
      wire.call('tools/call', { name: 'repeat', arguments: { text: 'ab' } }),
    ).resolves.toMatchObject({
      structuredContent: { out: 'ab' },
    });
    const bad = await wire.call('tools/call', { name: 'repeat', arguments: { text: '', times: 'x' } });
    expect(bad['isError']).toBe(true);
    expect(textOf(bad)).toMatch(/Invalid arguments for tool repeat/);
    expect(textOf(bad)).toMatch(/text: /);
    expect(textOf(bad)).toMatch(/times: /);
    const missing = await wire.call('tools/call', { name: 'repeat', arguments: {} });
    expect(missing['isError']).toBe(true);
  });

  it('keeps transforms and defaults of the property schemas', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'shout',
      { inputSchema: { text: z.string().transform((t) => t.toUpperCase()), mark: z.string().default('!') } },
      ({ text, mark }) => ({ content: [{ type: 'text', text: `${text}${mark}` }] }),
    );
    const wire = await connect(server);
    await initialize(wire);
    const result = await wire.call('tools/call', { name: 'shout', arguments: { text: 'hi' } });
    expect(textOf(result)).toBe('HI!');
  });

  it('still takes a zod object schema, and a raw JSON Schema verbatim', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('obj', { inputSchema: z.object({ a: z.number() }) }, ({ a }) => ({
      content: [{ type: 'text', text: String(a + 1) }],
    }));
    const raw = { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] };
    server.registerTool('json', { inputSchema: raw }, (args) => ({
      content: [{ type: 'text', text: String(args['b']) }],
    }));
    const wire = await connect(server);
    await initialize(wire);
    const { tools } = (await wire.call('tools/list')) as { tools: Array<Record<string, unknown>> };
    expect(tools[1]!['inputSchema']).toEqual(raw);
    expect(textOf(await wire.call('tools/call', { name: 'obj', arguments: { a: 1 } }))).toBe('2');
    expect(textOf(await wire.call('tools/call', { name: 'json', arguments: { b: 'x' } }))).toBe('x');
    expect((await wire.call('tools/call', { name: 'json', arguments: {} }))['isError']).toBe(true);
  });

  it('refuses a schema that does not describe an object, naming the accepted forms', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('bad', { inputSchema: z.string() }, () => ({ content: [] }))).toThrow(
      /inputSchema must describe an object: a Standard Schema object .*raw shape/,
    );
  });
});
