import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as schemas from '../src/index.js';
import { InputRequiredResultSchema, ResultType } from '../src/index.js';
import * as checks from '../src/schemas/generated/checks.js';
import { fastCheckOf } from '../src/schemas/lazy-schema.js';
import { loadExamples } from './schemas-spec-helpers.js';
import { assertExact, mutate, mutation, valid, type ZodLike } from './zod-arbitraries.js';

/**
 * The generated checks are exact: `isX(v)` holds iff `XSchema.safeParse(v)` succeeds and returns `v`
 * unchanged, for plain data without an own `__proto__` key (which zod drops, so such a value always goes
 * to zod). Values come from arbitraries derived from each schema's zod definition, valid ones and
 * mutations of them.
 */

const all = schemas as unknown as Record<string, unknown>;
const checkFns = checks as unknown as Record<string, (value: unknown) => boolean>;
const names = Object.keys(all)
  .filter((key) => key.endsWith('Schema') && typeof all[key] === 'object' && all[key] !== null)
  .filter((key) => '_zod' in (all[key] as object))
  .sort();

/** The property for the exported `${name}Schema` and its generated `is${name}`. */
function holds(name: string, value: unknown): void {
  assertExact(
    name,
    all[`${name}Schema`] as ZodLike,
    checkFns[`is${name}`] as (value: unknown) => boolean,
    value,
  );
}

describe('generated checks are exact', () => {
  it('cover every exported schema', () => {
    expect(names.length).toBeGreaterThan(150);
    for (const name of names) expect(typeof checkFns[`is${name.slice(0, -6)}`], name).toBe('function');
  });

  it.each(names.map((name) => name.slice(0, -'Schema'.length)))('is%s', (name) => {
    const arbitrary = valid(all[`${name}Schema`] as ZodLike);
    fc.assert(
      fc.property(arbitrary, (value) => {
        holds(name, value);
        // The values of a derived arbitrary are meant to be valid: most of them must pass.
        return true;
      }),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(arbitrary, mutation, fc.nat(), (value, m, pick) => {
        holds(name, mutate(value, [m, pick]));
      }),
      { numRuns: 60 },
    );
  });

  it('accept what the arbitraries make (they are not vacuous)', () => {
    for (const name of [
      'CallToolResult',
      'InitializeResult',
      'ListToolsResult',
      'CreateMessageRequestParams',
    ]) {
      const check = checkFns[`is${name}`] as (value: unknown) => boolean;
      const values = fc.sample(valid(all[`${name}Schema`] as ZodLike), { numRuns: 50, seed: 1 });
      expect(values.filter(check).length, name).toBeGreaterThan(40);
    }
  });
});

describe('generated checks: wired in as fast checks', () => {
  it('every exported schema has one', () => {
    const missing = names.filter((name) => fastCheckOf(all[name] as object) === undefined);
    expect(missing).toEqual([]);
  });

  it('every params, result and notification schema of the method tables has one', () => {
    const tables = [
      schemas.clientRequestSchemas,
      schemas.serverRequestSchemas,
      schemas.clientNotificationSchemas,
      schemas.serverNotificationSchemas,
    ] as unknown as Record<string, object | { params: object; result: object }>[];
    for (const table of tables)
      for (const [method, entry] of Object.entries(table)) {
        const parts = 'params' in entry ? [entry.params, entry.result] : [entry];
        for (const part of parts) expect(fastCheckOf(part), method).toBeDefined();
      }
    // Params a revision lets the peer omit.
    expect(fastCheckOf(schemas.clientRequestSchemas.ping.params)?.(undefined)).toBe(true);
    expect(fastCheckOf(schemas.clientRequestSchemas['tools/list'].params)?.({ cursor: 'c' })).toBe(true);
    expect(fastCheckOf(schemas.clientRequestSchemas['tools/list'].params)?.({ cursor: 1 })).toBe(false);
  });
});

describe('generated checks: edges', () => {
  const text = { type: 'text', text: 'hi' };
  it('mirror zod on numbers: finite, safe integers, inclusive bounds', () => {
    expect(checks.isAnnotations({ priority: 0 })).toBe(true);
    expect(checks.isAnnotations({ priority: 1 })).toBe(true);
    expect(checks.isAnnotations({ priority: 1.0000001 })).toBe(false);
    expect(checks.isAnnotations({ priority: Number.NaN })).toBe(false);
    expect(checks.isCacheableResult({ ttlMs: 0 })).toBe(true);
    expect(checks.isCacheableResult({ ttlMs: -1 })).toBe(false);
    expect(checks.isCacheableResult({ ttlMs: 1.5 })).toBe(false);
    expect(checks.isCacheableResult({ ttlMs: Number.MAX_SAFE_INTEGER })).toBe(true);
    expect(checks.isCacheableResult({ ttlMs: Number.MAX_SAFE_INTEGER + 1 })).toBe(false);
    expect(checks.isProgressToken(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('send an own `__proto__` key (which zod drops) and non-plain objects to zod', () => {
    expect(checks.isCallToolResult({ content: [text] })).toBe(true);
    expect(checks.isCallToolResult(JSON.parse('{"__proto__": {}, "content": []}'))).toBe(false);
    expect(
      checks.isCallToolResult({ content: [JSON.parse('{"__proto__": 1, "type": "text", "text": "x"}')] }),
    ).toBe(false);
    // zod returns a plain copy of a null-prototype object or a class instance.
    expect(checks.isCallToolResult(Object.assign(Object.create(null), { content: [text] }))).toBe(false);
    class Result {
      content = [text];
    }
    expect(checks.isCallToolResult(new Result())).toBe(false);
    // Inside a value the schema does not look into (`unknown`), zod keeps the key: so does the check.
    expect(checks.isCallToolResult({ content: [], structuredContent: JSON.parse('{"__proto__": 1}') })).toBe(
      true,
    );
  });

  it('need required keys present even where the schema takes any value', () => {
    // `data: z.unknown()`: zod fails an absent key ("expected nonoptional"), keeps a present `undefined`.
    expect(checks.isLoggingMessageNotificationParams({ level: 'info', data: undefined })).toBe(true);
    expect(checks.isLoggingMessageNotificationParams({ level: 'info' })).toBe(false);
  });

  it('pick the union option zod picks', () => {
    // JSON values: arrays, records, primitives, recursively.
    expect(checks.isJSONValue({ a: [1, { b: null }], c: 'x' })).toBe(true);
    expect(checks.isJSONValue({ a: [1, { b: undefined }] })).toBe(false);
    expect(checks.isJSONValue({ a: [Number.POSITIVE_INFINITY] })).toBe(false);
    // zod takes this as a CreateMessageResult (the first option) and drops the `__proto__` key inside
    // `content`: a later option (ListRootsResult, to which `content` is just an extra key) must not
    // answer for it.
    const content = JSON.parse('{"__proto__": 1, "type": "text", "text": "x"}');
    const input = { roots: [], role: 'user', content, model: 'm' };
    expect(checks.isListRootsResult(input)).toBe(true);
    expect(checks.isInputResponse(input)).toBe(false);
    expect(checks.isInputResponse({ ...input, content: { type: 'text', text: 'x' } })).toBe(true);
  });
});

describe('generated checks: official 2026-07-28 examples', () => {
  const examples = loadExamples('2026-07-28');
  it.each(examples)('$type/$file passes its check', ({ type, value }) => {
    let name = type;
    let input = value;
    if (checkFns[`is${type}`] === undefined) {
      const result = (value as { result: { resultType?: string } }).result;
      name =
        result.resultType === ResultType.InputRequired
          ? 'InputRequiredResult'
          : type.replace(/Response$/, '');
      input = result;
    }
    expect(checkFns[`is${name}`], `no check for ${type}`).toBeDefined();
    expect(checkFns[`is${name}`]?.(input)).toBe(true);
    expect(InputRequiredResultSchema).toBeDefined();
  });
});
