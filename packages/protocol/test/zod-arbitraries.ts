import fc from 'fast-check';
import { realSchema } from '../src/schemas/lazy-schema.js';

/**
 * fast-check arbitraries derived from a zod definition (values the schema takes unchanged, as far as the
 * definition tells), mutations of them, and the exactness property the generated checks keep.
 */

export interface ZodLike {
  _zod: { def: { type: string } & Record<string, unknown>; optin?: string; innerType?: ZodLike };
  safeParse(value: unknown): { success: boolean; data?: unknown };
}
interface CheckDef {
  check: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
}

const json = fc.jsonValue({ maxDepth: 2 });
const arbitraries = new Map<object, fc.Arbitrary<unknown>>();

function defOf(schema: ZodLike): ZodLike['_zod']['def'] {
  return schema._zod.def;
}

/** Valid values of `schema` (any value zod accepts unchanged, as far as the definition tells). */
export function valid(input: ZodLike, depth = 0): fc.Arbitrary<unknown> {
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
      const min = checkDefs.find((c) => c.check === 'min_length')?.minimum ?? 0;
      arbitrary =
        deep && min === 0
          ? fc.constant([])
          : fc.array(valid(d['element'] as ZodLike, depth + 1), {
              minLength: min,
              maxLength: Math.max(min, Math.min(max, 3)),
            });
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
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  odd.map((v) => ({ kind: 'replace' as const, with: v })),
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'proto' as const }),
  fc.constant({ kind: 'wrap' as const }),
);

/** `value` (a fresh copy) with one mutation at the place `pick` selects, or at the root. */
export function mutate(value: unknown, [m, pick]: [Mutation, number]): unknown {
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
export function same(a: unknown, b: unknown): boolean {
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

export function hasOwnProto(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some((v) => hasOwnProto(v, depth + 1));
}

/**
 * The property both ways: `check(value)` iff `schema` takes `value` and returns it unchanged, for values
 * without an own `__proto__` key (zod drops that key, so the check may send such a value to zod).
 */
export function assertExact(
  name: string,
  schema: ZodLike,
  check: (value: unknown) => boolean,
  value: unknown,
): void {
  const parsed = schema.safeParse(value);
  const exact = parsed.success && same(parsed.data, value);
  const answer = check(value);
  if (answer && !exact) throw new Error(`is${name} accepted what zod rejects or changes: ${show(value)}`);
  if (!answer && exact && !hasOwnProto(value))
    throw new Error(`is${name} rejected what zod returns unchanged: ${show(value)}`);
}

export function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === undefined ? '<undefined>' : v)) ?? String(value);
}
