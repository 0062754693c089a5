import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CallToolResultSchema,
  fastAccepts,
  isPlainCallToolResult,
  Protocol,
  registerFastCheck,
} from '@x/protocol';
import { engineWithRawPeer } from './engine-helpers.js';

const runs = { numRuns: 300 } as const;

// Values near the everyday shape, so both branches of the check get exercised.
const textBlock = fc.record(
  {
    type: fc.oneof(fc.constant('text'), fc.constant('image'), fc.string({ maxLength: 4 })),
    text: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    annotations: fc.oneof(fc.constant({ priority: 0.5 }), fc.constant({ priority: 7 }), fc.constant('x')),
    _meta: fc.oneof(fc.constant({}), fc.constant(null)),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
// The `_meta` every 2026-07-28 result carries, and near misses of it.
const serverInfo = fc.oneof(
  fc.constant({ name: 'srv', version: '1.0.0' }),
  fc.record(
    {
      name: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      version: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)),
      title: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      description: fc.oneof(fc.string({ maxLength: 4 }), fc.boolean()),
      websiteUrl: fc.oneof(fc.string({ maxLength: 4 }), fc.constant([])),
      icons: fc.oneof(fc.constant([{ src: 'a.png' }]), fc.constant([{ src: 1 }]), fc.constant('x')),
      other: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const nearResult = fc.record(
  {
    content: fc.oneof(fc.array(textBlock, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    isError: fc.oneof(fc.boolean(), fc.constant('yes'), fc.constant(null)),
    structuredContent: fc.jsonValue({ maxDepth: 2 }),
    resultType: fc.oneof(fc.constant('complete'), fc.constant('input_required'), fc.constant(3)),
    _meta: fc.oneof(
      fc.constant({}),
      fc.constant([]),
      fc.constant(null),
      fc.record({ [SERVER_INFO]: serverInfo }, { requiredKeys: [] }),
      fc.record({ [SERVER_INFO]: serverInfo, other: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
    ),
    other: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

// The everyday shape itself, so the accepting branch is always exercised.
const plainResult = fc.record(
  {
    content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 8 }) }), {
      maxLength: 3,
    }),
    isError: fc.boolean(),
    structuredContent: fc.jsonValue({ maxDepth: 2 }),
    resultType: fc.constant('complete'),
    _meta: fc.record({ [SERVER_INFO]: serverInfo }),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['content'] },
);

describe('fast checks', () => {
  it('the CallToolResult check only accepts what the schema accepts, and the schema returns it unchanged', () => {
    let accepted = 0;
    let acceptedWithMeta = 0;
    fc.assert(
      fc.property(fc.oneof(plainResult, nearResult, fc.jsonValue({ maxDepth: 3 })), (generated) => {
        const value: unknown = JSON.parse(JSON.stringify(generated)); // as it comes off a wire
        if (!isPlainCallToolResult(value)) return;
        accepted++;
        if ((value as { _meta?: unknown })._meta !== undefined) acceptedWithMeta++;
        const parsed = CallToolResultSchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toStrictEqual(value);
      }),
      runs,
    );
    expect(accepted).toBeGreaterThan(0); // the generator must reach the fast path, or this proves nothing
    expect(acceptedWithMeta).toBeGreaterThan(0);
  });

  it('turns down the unusual shapes, which then go through the schema', () => {
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    expect(isPlainCallToolResult(plain)).toBe(true);
    expect(isPlainCallToolResult({ ...plain, isError: true, structuredContent: { n: 1 } })).toBe(true);
    // A 2026-07-28 result: resultType and the server's identity in _meta.
    const modern = {
      ...plain,
      resultType: 'complete',
      _meta: { [SERVER_INFO]: { name: 'srv', version: '1.0.0', title: 'Server' }, 'x.example/trace': 7 },
    };
    expect(isPlainCallToolResult(modern)).toBe(true);
    expect(isPlainCallToolResult({ ...plain, _meta: { progressToken: 1 } })).toBe(true);
    for (const odd of [
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [{ type: 'text', text: 'hi', annotations: { priority: 1 } }] },
      { content: [{ type: 'text', text: 1 }] },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv' } } },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv', version: '1', title: 2 } } },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv', version: '1', icons: [{ src: 'a.png' }] } } },
      { ...plain, _meta: [] },
      { ...plain, _meta: null },
      { ...plain, isError: 'no' },
      { ...plain, resultType: 'input_required' },
      { content: 'hi' },
      [plain],
    ]) {
      expect(isPlainCallToolResult(odd)).toBe(false);
    }
    expect(fastAccepts(CallToolResultSchema, plain)).toBe(true);
    expect(fastAccepts(z.object({}), plain)).toBe(false); // no check registered: run the schema
  });

  it('the engine resolves a fast-checked result as is and still rejects what fails the schema', async () => {
    const { engine, inject } = await engineWithRawPeer();
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    const first = engine.request({ method: 'tools/call' }, CallToolResultSchema);
    await inject({ jsonrpc: '2.0', id: 1, result: plain });
    expect(await first).toBe(plain);

    const second = engine.request({ method: 'tools/call' }, CallToolResultSchema).catch((e: unknown) => e);
    await inject({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text' }] } });
    expect(String(await second)).toMatch(/Invalid result for tools\/call/);
  });

  it('a registered check is consulted per schema object', () => {
    const Schema = registerFastCheck(z.looseObject({ n: z.number() }), (v) => v === 'fast');
    expect(fastAccepts(Schema, 'fast')).toBe(true);
    expect(fastAccepts(Schema, { n: 1 })).toBe(false);
    expect(Protocol).toBeDefined();
  });
});
