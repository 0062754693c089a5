import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as schemas from '../src/index.js';
import { InputRequiredResultSchema, ResultType } from '../src/index.js';
import * as checks from '../src/schemas/generated/checks.js';
import { fastCheckOf, realSchema } from '../src/schemas/lazy-schema.js';
import { loadExamples } from './schemas-spec-helpers.js';

/**
 * The generated checks are exact: `isX(v)` holds iff `XSchema.safeParse(v)` succeeds and returns `v`
 * unchanged, for plain data without an own `__proto__` key (which zod drops, so such a value always goes
 * to zod). Values come from arbitraries derived from each schema's zod definition, valid ones and
 * mutations of them.
 */

interface ZodLike {
  _zod: { def: { type: string } & Record<string, unknown>; optin?: string; innerType?: ZodLike };
  safeParse(value: unknown): { success: boolean; data?: unknown };
}
interface CheckDef {
  check: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
  maximum?: number;
}

const all = schemas as unknown as Record<string, unknown>;
const checkFns = checks as unknown as Record<string, (value: unknown) => boolean>;
const names = Object.keys(all)
  .filter((key) => key.endsWith('Schema') && typeof all[key] === 'object' && all[key] !== null)
  .filter((key) => '_zod' in (all[key] as object))
  .sort();

const json = fc.jsonValue({ maxDepth: 2 });
const arbitraries = new Map<object, fc.Arbitrary<unknown>>();

function defOf(schema: ZodLike): ZodLike['_zod']['def'] {
  return schema._zod.def;
}

/** Valid values of `schema` (any value zod accepts unchanged, as far as the definition tells). */
function valid(input: ZodLike, depth = 0): fc.Arbitrary<unknown> {
  const schema = realSchema(input);
  const cached = depth === 0 ? arbitraries.get(schema) : undefined;
  if (cached !== undefined) return cached;
  const d = defOf(schema);
  const deep = depth > 4;
  const checkDefs = ((d['checks'] as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);
  let arbitrary: fc.Arbitrary<unknown>;
  switch (d.type) {
    case 'string':
      arbitrary = fc.string({ maxLength: 6 });
      break;
    case 'boolean':
      arbitrary = fc.boolean();
      break;
    case 'null':
      arbitrary = fc.constant(null);
      break;
    case 'unknown':
      arbitrary = deep ? fc.constant(null) : json;
      break;
    case 'number': {
      const int = checkDefs.some((c) => c.format === 'safeint');
      let min = int ? Number.MIN_SAFE_INTEGER : -1e9;
      let max = int ? Number.MAX_SAFE_INTEGER : 1e9;
      let minExcluded = false;
      let maxExcluded = false;
      for (const c of checkDefs) {
        if (c.check === 'greater_than') [min, minExcluded] = [c.value as number, !c.inclusive];
        if (c.check === 'less_than') [max, maxExcluded] = [c.value as number, !c.inclusive];
      }
      const edges = [min, max].filter((n) => Number.isFinite(n));
      const body = int
        ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded, maxExcluded });
      arbitrary = fc.oneof(body, fc.constantFrom(...edges)).filter((n) => {
        if (minExcluded && n === min) return false;
        return !(maxExcluded && n === max);
      });
      break;
    }
    case 'literal':
      arbitrary = fc.constantFrom(...(d['values'] as unknown[]));
      break;
    case 'enum':
      arbitrary = fc.constantFrom(...Object.values(d['entries'] as object));
      break;
    case 'optional':
      arbitrary = fc.option(valid(d['innerType'] as ZodLike, depth), { nil: undefined, freq: 3 });
      break;
    case 'nullable':
      arbitrary = fc.option(valid(d['innerType'] as ZodLike, depth), { nil: null, freq: 3 });
      break;
    case 'array': {
      const max = checkDefs.find((c) => c.check === 'max_length')?.maximum ?? 3;
      arbitrary = deep
        ? fc.constant([])
        : fc.array(valid(d['element'] as ZodLike, depth + 1), { maxLength: Math.min(max, 3) });
      break;
    }
    case 'record':
      arbitrary = deep
        ? fc.constant({})
        : fc.dictionary(fc.string({ maxLength: 4 }), valid(d['valueType'] as ZodLike, depth + 1), {
            maxKeys: 3,
            noNullPrototype: true,
          });
      break;
    case 'union':
      arbitrary = fc.oneof(...(d['options'] as ZodLike[]).map((o) => valid(o, depth + 1)));
      break;
    case 'lazy':
      arbitrary = valid(schema._zod.innerType ?? (d['getter'] as () => ZodLike)(), depth + 1);
      break;
    case 'object': {
      const shape = d['shape'] as Record<string, ZodLike>;
      const keys = Object.keys(shape);
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of keys) fields[key] = valid(shape[key] as ZodLike, depth + 1);
      const required = keys.filter((key) => realSchema(shape[key] as ZodLike)._zod.optin === undefined);
      const extra = fc.dictionary(
        fc.string({ maxLength: 4 }).filter((key) => !keys.includes(key) && key !== '__proto__'),
        json,
        { maxKeys: 2, noNullPrototype: true },
      );
      arbitrary = fc
        .tuple(fc.record(fields, { requiredKeys: required }), fc.option(extra, { freq: 2 }))
        .map(([known, more]) => ({ ...more, ...known }));
      break;
    }
    default:
      throw new Error(`no arbitrary for zod type ${d.type}`);
  }
  if (depth === 0) arbitraries.set(schema, arbitrary);
  return arbitrary;
}

const odd = fc.constantFrom<unknown>(
  null,
  undefined,
  [],
  {},
  '',
  'x',
  true,
  0,
  -1,
  1.5,
  -0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.MAX_SAFE_INTEGER + 1,
  2 ** 31,
);

/** Every path into a value (arrays and objects), and the holder and key of each. */
function places(value: unknown, out: { holder: object; key: string }[] = [], depth = 0): typeof out {
  if (typeof value !== 'object' || value === null || depth > 6) return out;
  for (const key of Object.keys(value)) {
    out.push({ holder: value, key });
    places((value as Record<string, unknown>)[key], out, depth + 1);
  }
  return out;
}

type Mutation =
  | { kind: 'replace'; with: unknown }
  | { kind: 'delete' }
  | { kind: 'proto' }
  | { kind: 'wrap' };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  odd.map((v) => ({ kind: 'replace' as const, with: v })),
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'proto' as const }),
  fc.constant({ kind: 'wrap' as const }),
);

/** `value` (a fresh copy) with one mutation at the place `pick` selects, or at the root. */
function mutate(value: unknown, [m, pick]: [Mutation, number]): unknown {
  const copy = structuredClone(value);
  const spots = places(copy);
  const target =
    spots.length === 0 || pick % (spots.length + 1) === 0 ? undefined : spots[pick % spots.length];
  const apply = (current: unknown): unknown => {
    switch (m.kind) {
      case 'replace':
        return m.with;
      case 'wrap':
        return [current];
      case 'proto':
        return typeof current === 'object' && current !== null && !Array.isArray(current)
          ? JSON.parse(`{"__proto__": {"x": 1}, ${JSON.stringify(current).slice(1)}`.replace(/, }$/, '}'))
          : JSON.parse('{"__proto__": {}}');
      case 'delete':
        return undefined;
    }
  };
  if (target === undefined) return m.kind === 'delete' ? {} : apply(copy);
  const holder = target.holder as Record<string, unknown>;
  if (m.kind === 'delete') {
    if (Array.isArray(holder)) holder.splice(Number(target.key), 1);
    else delete holder[target.key];
  } else holder[target.key] = apply(holder[target.key]);
  return copy;
}

/** Same own keys and values all the way down (prototypes aside: zod returns plain objects). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (a === b) return true;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (key) =>
      Object.hasOwn(b, key) &&
      same((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key]),
  );
}

function hasOwnProto(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some((v) => hasOwnProto(v, depth + 1));
}

/** The property both ways, with a message naming the value when it fails. */
function assertExact(name: string, value: unknown): void {
  const schema = all[`${name}Schema`] as ZodLike;
  const check = checkFns[`is${name}`] as (value: unknown) => boolean;
  const parsed = schema.safeParse(value);
  const exact = parsed.success && same(parsed.data, value);
  const answer = check(value);
  if (answer && !exact) throw new Error(`is${name} accepted what zod rejects or changes: ${show(value)}`);
  if (!answer && exact && !hasOwnProto(value))
    throw new Error(`is${name} rejected what zod returns unchanged: ${show(value)}`);
}

function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === undefined ? '<undefined>' : v)) ?? String(value);
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
        assertExact(name, value);
        // The values of a derived arbitrary are meant to be valid: most of them must pass.
        return true;
      }),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(arbitrary, mutation, fc.nat(), (value, m, pick) => {
        assertExact(name, mutate(value, [m, pick]));
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
    expect(checks.isCallToolResult(Object.assign(Object.create(null), { content: [text] }))).toBe(true);
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
