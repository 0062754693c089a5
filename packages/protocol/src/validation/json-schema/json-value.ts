export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const hasOwn: (object: object, key: PropertyKey) => boolean = Object.hasOwn;

/** Beyond this nesting, equality and canonical keys give up rather than overflow the stack. */
const MAX_VALUE_DEPTH = 512;

export class ValueDepthError extends Error {
  override readonly name: string = 'ValueDepthError';
}

/** JSON equality (JSON Schema 2020-12 Core §4.2.2): `1` equals `1.0`, object key order is irrelevant. */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > MAX_VALUE_DEPTH) throw new ValueDepthError('value nesting too deep to compare');
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  const aObject = a as JsonObject;
  const bObject = b as JsonObject;
  for (const key of aKeys) {
    if (!hasOwn(bObject, key) || !deepEqual(aObject[key], bObject[key], depth + 1)) return false;
  }
  return true;
}

/**
 * A string that is equal for exactly the values `deepEqual` considers equal, so duplicate
 * detection is a Set lookup instead of an O(n²) pairwise comparison.
 */
export function canonicalKey(value: unknown, depth = 0): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object' || value === null) return String(value);
  if (depth > MAX_VALUE_DEPTH) throw new ValueDepthError('value nesting too deep to compare');
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalKey(value[i], depth + 1);
    return out + ']';
  }
  const object = value as JsonObject;
  let out = '{';
  let first = true;
  for (const key of Object.keys(object).sort()) {
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + canonicalKey(object[key], depth + 1);
    first = false;
  }
  return out + '}';
}
