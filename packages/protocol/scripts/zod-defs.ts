/**
 * Reading zod 4 definitions for the checks generator: the parts of `_zod` it reads, and what a schema
 * may accept (value kinds, `undefined`), which decides how union options and required keys are checked.
 */
import { realSchema } from '../src/schemas/lazy-schema.js';

export interface ZodInternals {
  def: { type: string } & Record<string, unknown>;
  optin?: string;
  innerType?: ZodLike;
}
export interface ZodLike {
  _zod: ZodInternals;
}
export interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
}

export function def(schema: ZodLike): ZodInternals['def'] {
  return schema._zod.def;
}

export function innerOfLazy(schema: ZodLike): ZodLike {
  return realSchema(schema._zod.innerType ?? (def(schema)['getter'] as () => ZodLike)());
}

/** The kinds of value a schema may accept, and its finite set of values when it has one. */
interface Kinds {
  kinds: Set<string>;
  values?: Set<unknown>;
}
const ALL = ['string', 'number', 'boolean', 'null', 'undefined', 'array', 'object', 'other'];

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return ALL.includes(type) ? type : 'other';
}

function kinds(schema: ZodLike, depth = 0): Kinds {
  const d = def(schema);
  switch (d.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'undefined':
    case 'array':
    case 'object':
      return { kinds: new Set([d.type]) };
    case 'record':
      return { kinds: new Set(['object']) };
    case 'literal':
    case 'enum': {
      const values =
        d.type === 'literal' ? (d['values'] as unknown[]) : Object.values(d['entries'] as object);
      return { kinds: new Set(values.map(kindOf)), values: new Set(values) };
    }
    case 'optional':
    case 'nullable': {
      const inner = kinds(realSchema(d['innerType'] as ZodLike), depth);
      const extra = d.type === 'optional' ? undefined : null;
      inner.kinds.add(kindOf(extra));
      inner.values?.add(extra);
      return inner;
    }
    case 'union': {
      const parts = (d['options'] as ZodLike[]).map((o) => kinds(realSchema(o), depth));
      const all = new Set(parts.flatMap((p) => [...p.kinds]));
      if (parts.every((p) => p.values !== undefined))
        return { kinds: all, values: new Set(parts.flatMap((p) => [...(p.values ?? [])])) };
      return { kinds: all };
    }
    case 'lazy':
      return depth > 8 ? { kinds: new Set(ALL) } : kinds(innerOfLazy(schema), depth + 1);
    default:
      return { kinds: new Set(ALL) };
  }
}

/** No value is accepted by both (so the order of union options does not matter between them). */
export function disjoint(a: ZodLike, b: ZodLike, depth = 0): boolean {
  const ka = kinds(a);
  const kb = kinds(b);
  if (![...ka.kinds].some((k) => kb.kinds.has(k))) return true;
  if (ka.values !== undefined && kb.values !== undefined)
    return ![...ka.values].some((v) => kb.values?.has(v));
  if (depth > 4) return false;
  let da = def(a);
  let db = def(b);
  if (da.type === 'lazy') da = def(innerOfLazy(a));
  if (db.type === 'lazy') db = def(innerOfLazy(b));
  if (da.type !== 'object' || db.type !== 'object') return false;
  const sa = da['shape'] as Record<string, ZodLike>;
  const sb = db['shape'] as Record<string, ZodLike>;
  return Object.keys(sa).some((key) => {
    const fa = sb[key] === undefined ? undefined : realSchema(sa[key] as ZodLike);
    const fb = sb[key] === undefined ? undefined : realSchema(sb[key] as ZodLike);
    return (
      fa !== undefined &&
      fb !== undefined &&
      fa._zod.optin === undefined &&
      fb._zod.optin === undefined &&
      disjoint(fa, fb, depth + 1)
    );
  });
}

export function acceptsUndefined(schema: ZodLike, depth = 0): boolean {
  const d = def(schema);
  switch (d.type) {
    case 'unknown':
    case 'any':
    case 'optional':
    case 'undefined':
    case 'void':
      return true;
    case 'nullable':
      return acceptsUndefined(realSchema(d['innerType'] as ZodLike), depth);
    case 'union':
      return (d['options'] as ZodLike[]).some((o) => acceptsUndefined(realSchema(o), depth));
    case 'literal':
      return (d['values'] as unknown[]).includes(undefined);
    case 'lazy':
      return depth < 8 && acceptsUndefined(innerOfLazy(schema), depth + 1);
    default:
      return false;
  }
}
