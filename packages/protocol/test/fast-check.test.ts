import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CallToolResultSchema,
  CreateTaskHandleSchema,
  orInputRequired,
  DiscoverResultSchema,
  InitializeRequestParamsSchema,
  InitializeResultSchema,
  Protocol,
} from '@x/protocol';
import {
  DeferredCallToolOutcomeSchema,
  fastAccepts,
  lazySchema,
  parseParams,
  realSchema,
  registerFastCheck,
} from '@x/protocol/internal';
import { isSchemaBuilt } from '@x/protocol/testing';
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
/** An object with an own `__proto__` key, as `JSON.parse` makes it from the wire (zod leaves the key out). */
const withProto = <T extends object>(value: T): T =>
  Object.defineProperty({ ...value }, '__proto__', { value: { x: 1 }, enumerable: true, writable: true });
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
const nearResult = fc
  .record(
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
        fc.constant(withProto({})),
      ),
      other: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  )
  .map((value) => (value.other === 0 ? withProto(value) : value));

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

// `initialize` params and results: the everyday shapes, and near misses of every field the checks read.
const anObject = fc.oneof(
  fc.constant({}),
  fc.constant({ a: 1 }),
  fc.constant(withProto({})),
  fc.constant([]),
  fc.constant(null),
  fc.constant('x'),
);
const listChanged = fc.oneof(
  fc.record(
    { listChanged: fc.oneof(fc.boolean(), fc.constant('yes')), other: fc.integer() },
    { requiredKeys: [] },
  ),
  anObject,
);
const experimental = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'b.c', '__proto__'), anObject, { maxKeys: 2 }),
  anObject,
);
const clientCapabilities = fc.oneof(
  fc.record(
    {
      experimental,
      roots: listChanged,
      sampling: fc.oneof(fc.record({ context: anObject, tools: anObject }, { requiredKeys: [] }), anObject),
      elicitation: fc.oneof(fc.record({ form: anObject, url: anObject }, { requiredKeys: [] }), anObject),
      tasks: anObject,
      extensions: anObject,
      other: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const plainClientCapabilities = fc.record(
  {
    roots: fc.record({ listChanged: fc.boolean() }, { requiredKeys: [] }),
    sampling: fc.constant({}),
    elicitation: fc.record({ form: fc.constant({}), url: fc.constant({}) }, { requiredKeys: [] }),
    experimental: fc.dictionary(fc.constantFrom('a', 'b'), fc.constant({ on: true }), { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);
const nearInitializeParams = fc.record(
  {
    protocolVersion: fc.oneof(fc.constant('2025-11-25'), fc.integer()),
    capabilities: fc.oneof(plainClientCapabilities, clientCapabilities),
    clientInfo: serverInfo,
    _meta: fc.oneof(fc.constant({ progressToken: 1 }), fc.constant({ progressToken: [] }), fc.constant(null)),
    other: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['protocolVersion', 'capabilities', 'clientInfo'] },
);
const serverCapabilities = fc.oneof(
  fc.record(
    {
      experimental,
      logging: anObject,
      completions: anObject,
      prompts: listChanged,
      tools: listChanged,
      resources: fc.oneof(
        fc.record(
          {
            subscribe: fc.oneof(fc.boolean(), fc.constant(1)),
            listChanged: fc.oneof(fc.boolean(), fc.constant('no')),
          },
          { requiredKeys: [] },
        ),
        anObject,
      ),
      tasks: anObject,
      extensions: anObject,
      other: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const plainServerCapabilities = fc.record(
  {
    tools: fc.record({ listChanged: fc.boolean() }, { requiredKeys: [] }),
    prompts: fc.constant({}),
    resources: fc.record({ subscribe: fc.boolean(), listChanged: fc.boolean() }, { requiredKeys: [] }),
    logging: fc.constant({}),
    completions: fc.constant({}),
  },
  { requiredKeys: [] },
);
const nearInitializeResult = fc.record(
  {
    protocolVersion: fc.oneof(fc.constant('2025-06-18'), fc.constant(null)),
    capabilities: fc.oneof(plainServerCapabilities, serverCapabilities),
    serverInfo,
    instructions: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
    resultType: fc.oneof(fc.constant('complete'), fc.constant(2)),
    _meta: fc.oneof(fc.constant({}), fc.constant([]), fc.record({ [SERVER_INFO]: serverInfo })),
    other: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['protocolVersion', 'capabilities', 'serverInfo'] },
);

const nearDiscoverResult = fc.record(
  {
    supportedVersions: fc.oneof(
      fc.constant(['2026-07-28']),
      fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 2 }),
      fc.constant('2026-07-28'),
    ),
    capabilities: fc.oneof(plainServerCapabilities, serverCapabilities),
    instructions: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
    ttlMs: fc.oneof(
      fc.nat(),
      fc.integer({ min: -5, max: -1 }),
      fc.double(),
      fc.constant(2 ** 53),
      fc.constant('1'),
    ),
    cacheScope: fc.oneof(fc.constantFrom('private', 'public', 'shared'), fc.integer()),
    resultType: fc.oneof(fc.constant('complete'), fc.constant(2)),
    _meta: fc.oneof(fc.record({ [SERVER_INFO]: serverInfo }), fc.constant([])),
    other: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['supportedVersions', 'capabilities'] },
);

// The everyday shapes themselves, so the accepting branch is always exercised.
const plainImplementation = fc.record(
  {
    name: fc.string({ maxLength: 4 }),
    version: fc.string({ maxLength: 4 }),
    title: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: ['name', 'version'] },
);
const plainInitializeParams = fc.record({
  protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25'),
  capabilities: plainClientCapabilities,
  clientInfo: plainImplementation,
});
const plainInitializeResult = fc.record(
  {
    protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25'),
    capabilities: plainServerCapabilities,
    serverInfo: plainImplementation,
    instructions: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: ['protocolVersion', 'capabilities', 'serverInfo'] },
);
const plainDiscoverResult = fc.record(
  {
    supportedVersions: fc.array(fc.constantFrom('2025-11-25', '2026-07-28'), { maxLength: 2 }),
    capabilities: plainServerCapabilities,
    ttlMs: fc.nat(),
    cacheScope: fc.constantFrom('private', 'public'),
    resultType: fc.constant('complete'),
    _meta: fc.record({ [SERVER_INFO]: plainImplementation }),
  },
  { requiredKeys: ['supportedVersions', 'capabilities'] },
);

/** Asserts `check` only accepts wire values `schema` accepts and returns unchanged; counts acceptances. */
function holdsAgainstSchema(
  check: (value: unknown) => boolean,
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
  values: fc.Arbitrary<unknown>,
): number {
  let accepted = 0;
  fc.assert(
    fc.property(values, (generated) => {
      const value: unknown = JSON.parse(JSON.stringify(generated)); // as it comes off a wire
      if (!check(value)) return;
      accepted++;
      const parsed = schema.safeParse(value);
      expect(parsed.success).toBe(true);
      expect(parsed.data).toStrictEqual(value);
    }),
    runs,
  );
  return accepted;
}

/**
 * The client's check of a `tools/call` answer (its deferred handle, `schemas/deferred.ts`): a
 * `CallToolResult`, a task handle, or an `input_required` result, split on `resultType` as the schema is.
 */
const acceptsCallToolAnswer = (value: unknown): boolean => fastAccepts(DeferredCallToolOutcomeSchema, value);
const CallToolOutcomeSchema = orInputRequired(CallToolResultSchema).or(CreateTaskHandleSchema);

describe('fast checks', () => {
  it('the CallToolResult check only accepts what the schema accepts, and the schema returns it unchanged', () => {
    let accepted = 0;
    let acceptedWithMeta = 0;
    fc.assert(
      fc.property(fc.oneof(plainResult, nearResult, fc.jsonValue({ maxDepth: 3 })), (generated) => {
        const value: unknown = JSON.parse(JSON.stringify(generated)); // as it comes off a wire
        if (!acceptsCallToolAnswer(value)) return;
        accepted++;
        if ((value as { _meta?: unknown })._meta !== undefined) acceptedWithMeta++;
        const parsed = CallToolOutcomeSchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toStrictEqual(value);
      }),
      runs,
    );
    expect(accepted).toBeGreaterThan(0); // the generator must reach the fast path, or this proves nothing
    expect(acceptedWithMeta).toBeGreaterThan(0);
  });

  it('takes every shape the schema returns unchanged and turns down the rest, which go through the schema', () => {
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    expect(acceptsCallToolAnswer(plain)).toBe(true);
    expect(acceptsCallToolAnswer({ ...plain, isError: true, structuredContent: { n: 1 } })).toBe(true);
    // A 2026-07-28 result: resultType and the server's identity in _meta.
    const modern = {
      ...plain,
      resultType: 'complete',
      _meta: { [SERVER_INFO]: { name: 'srv', version: '1.0.0', title: 'Server' }, 'x.example/trace': 7 },
    };
    expect(acceptsCallToolAnswer(modern)).toBe(true);
    expect(acceptsCallToolAnswer({ ...plain, _meta: { progressToken: 1 } })).toBe(true);
    // The generated check is exact: any content block, annotations, icons.
    for (const rare of [
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [{ type: 'text', text: 'hi', annotations: { priority: 1 } }] },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv', version: '1', icons: [{ src: 'a.png' }] } } },
    ]) {
      expect(acceptsCallToolAnswer(rare)).toBe(true);
    }
    for (const odd of [
      { content: [{ type: 'text', text: 'hi', annotations: { priority: 1.5 } }] },
      { content: [{ type: 'text', text: 1 }] },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv' } } },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv', version: '1', title: 2 } } },
      { ...plain, _meta: { [SERVER_INFO]: { name: 'srv', version: '1', icons: [{ src: 1 }] } } },
      { ...plain, _meta: [] },
      { ...plain, _meta: null },
      { ...plain, isError: 'no' },
      // Asks for input: checked as an InputRequiredResult, which takes no string `inputRequests`.
      { ...plain, resultType: 'input_required', inputRequests: 'none' },
      { content: 'hi' },
      [plain],
    ]) {
      expect(acceptsCallToolAnswer(odd)).toBe(false);
    }
    expect(fastAccepts(CallToolResultSchema, plain)).toBe(true);
    expect(fastAccepts(z.object({}), plain)).toBe(false); // no check registered: run the schema
  });

  it('the initialize checks only accept what their schemas accept, and the schemas return it unchanged', () => {
    const acceptsParams = (value: unknown) => fastAccepts(InitializeRequestParamsSchema, value);
    const acceptsResult = (value: unknown) => fastAccepts(InitializeResultSchema, value);
    expect(
      holdsAgainstSchema(
        acceptsParams,
        InitializeRequestParamsSchema,
        fc.oneof(plainInitializeParams, nearInitializeParams),
      ),
    ).toBeGreaterThan(0);
    expect(
      holdsAgainstSchema(
        acceptsResult,
        InitializeResultSchema,
        fc.oneof(plainInitializeResult, nearInitializeResult),
      ),
    ).toBeGreaterThan(0);
    const acceptsDiscover = (value: unknown) => fastAccepts(DiscoverResultSchema, value);
    expect(
      holdsAgainstSchema(
        acceptsDiscover,
        DiscoverResultSchema,
        fc.oneof(plainDiscoverResult, nearDiscoverResult),
      ),
    ).toBeGreaterThan(0);
  });

  it('the server/discover check takes an everyday answer and turns down the rest', () => {
    const discover = {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
      ttlMs: 60_000,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: { [SERVER_INFO]: { name: 'srv', version: '1.0.0' } },
    };
    expect(fastAccepts(DiscoverResultSchema, discover)).toBe(true);
    expect(fastAccepts(DiscoverResultSchema, { ...discover, capabilities: { tasks: {} } })).toBe(true);
    for (const value of [
      { ...discover, supportedVersions: '2026-07-28' },
      { ...discover, supportedVersions: [20260728] },
      { ...discover, ttlMs: -1 },
      { ...discover, ttlMs: 1.5 },
      { ...discover, cacheScope: 'shared' },
      { ...discover, capabilities: { tasks: [] } },
      { ...discover, _meta: { [SERVER_INFO]: { name: 'srv' } } },
    ]) {
      expect(fastAccepts(DiscoverResultSchema, value)).toBe(false);
    }
  });

  it('the initialize checks take what clients and servers send every day and turn down the rest', () => {
    const clientInfo = { name: 'host', version: '1.0.0' };
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo };
    const everydayParams = [
      params,
      { ...params, capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
      { ...params, capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} } } },
      {
        ...params,
        capabilities: { experimental: { 'x.example/feature': {} } },
        clientInfo: { ...clientInfo, title: 'Host' },
      },
      { ...params, capabilities: { 'x.example/unknown': 1 }, other: true },
      // Rarer ones too: the generated check is exact.
      { ...params, capabilities: { tasks: {} } },
      { ...params, capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      { ...params, clientInfo: { ...clientInfo, icons: [{ src: 'a.png' }] } },
      { ...params, _meta: { progressToken: 1 } },
    ];
    for (const value of everydayParams) expect(fastAccepts(InitializeRequestParamsSchema, value)).toBe(true);
    for (const value of [
      { ...params, capabilities: { roots: { listChanged: 'yes' } } },
      { ...params, capabilities: { sampling: [] } },
      { ...params, capabilities: { elicitation: { form: true } } },
      { ...params, capabilities: { elicitation: { url: 1 } } },
      { ...params, capabilities: { sampling: { tools: true } } },
      { ...params, capabilities: { experimental: { on: true } } },
      { ...params, capabilities: { tasks: { list: true } } },
      { ...params, capabilities: { extensions: { 'io.modelcontextprotocol/tasks': 1 } } },
      { ...params, capabilities: JSON.parse('{"__proto__": {}}') },
      { ...params, clientInfo: { name: 'host' } },
      { ...params, clientInfo: { ...clientInfo, icons: [{ src: 1 }] } },
      { ...params, _meta: { progressToken: 1.5 } },
      { ...params, protocolVersion: 20251125 },
      JSON.parse(`{"__proto__": {}, ${JSON.stringify(params).slice(1)}`),
    ]) {
      expect(fastAccepts(InitializeRequestParamsSchema, value)).toBe(false);
    }

    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: clientInfo };
    const everydayResults = [
      result,
      { ...result, capabilities: { tools: { listChanged: true }, logging: {}, completions: {} } },
      { ...result, capabilities: { resources: { subscribe: true, listChanged: true }, prompts: {} } },
      { ...result, instructions: 'Use the tools.', _meta: { [SERVER_INFO]: clientInfo } },
      { ...result, capabilities: { tasks: { list: {} } } },
    ];
    for (const value of everydayResults) expect(fastAccepts(InitializeResultSchema, value)).toBe(true);
    for (const value of [
      { ...result, capabilities: { resources: { subscribe: 'yes' } } },
      { ...result, capabilities: { resources: { subscribe: true, listChanged: 'no' } } },
      { ...result, capabilities: { tools: [] } },
      { ...result, capabilities: { tasks: { list: 1 } } },
      { ...result, instructions: 1 },
      { ...result, serverInfo: { version: '1' } },
      { ...result, _meta: [] },
    ]) {
      expect(fastAccepts(InitializeResultSchema, value)).toBe(false);
    }
  });

  it('sends an object with an own __proto__ key (which zod leaves out) to the schema', () => {
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    expect(acceptsCallToolAnswer(JSON.parse('{"__proto__": {}, "content": []}'))).toBe(false);
    expect(
      acceptsCallToolAnswer({ content: [JSON.parse('{"__proto__": {}, "type": "text", "text": "x"}')] }),
    ).toBe(false);
    expect(acceptsCallToolAnswer({ ...plain, _meta: JSON.parse('{"__proto__": {}}') })).toBe(false);
    expect(Object.keys(CallToolResultSchema.parse(JSON.parse('{"__proto__": {}, "content": []}')))).toEqual([
      'content',
    ]);
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

  it('a check registered for a lazy schema answers for it and for the schema it built', () => {
    const Lazy = lazySchema(
      () => z.looseObject({ n: z.number() }),
      (v) => v === 'first',
    );
    expect(fastAccepts(Lazy, 'first')).toBe(true);
    expect(isSchemaBuilt(Lazy)).toBe(false);
    registerFastCheck(Lazy, (v) => v === 'second');
    expect(isSchemaBuilt(Lazy)).toBe(true);
    for (const schema of [Lazy, realSchema(Lazy)]) {
      expect(fastAccepts(schema, 'second')).toBe(true);
      expect(fastAccepts(schema, 'first')).toBe(false);
    }
  });

  it('parseParams takes what a fast check accepts as is, and sends the rest through the schema', () => {
    const Lazy = lazySchema(
      () => z.looseObject({ n: z.number(), unit: z.string().default('s') }),
      (v) =>
        typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number' && 'unit' in v,
    );
    const plain = { n: 1, unit: 'ms' };
    expect(parseParams(Lazy, plain, 'timer/set')).toBe(plain);
    expect(isSchemaBuilt(Lazy)).toBe(false);
    expect(parseParams(Lazy, { n: 2 }, 'timer/set')).toEqual({ n: 2, unit: 's' });
    expect(() => parseParams(Lazy, { n: 'x' }, 'timer/set')).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(/^Invalid params for timer\/set: n:/),
      }),
    );
    expect(parseParams(undefined, undefined, 'timer/list')).toEqual({});
  });

  it('a registered check is consulted per schema object', () => {
    const Schema = registerFastCheck(z.looseObject({ n: z.number() }), (v) => v === 'fast');
    expect(fastAccepts(Schema, 'fast')).toBe(true);
    expect(fastAccepts(Schema, { n: 1 })).toBe(false);
    expect(Protocol).toBeDefined();
  });
});
