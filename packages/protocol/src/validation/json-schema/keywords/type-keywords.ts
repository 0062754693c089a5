import { canonicalKey, deepEqual, hasOwn, isJsonObject } from '../json-value.js';
import type { KeywordCompiler } from '../node-context.js';
import { invalid } from '../runtime.js';

const TYPE_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  // 2020-12 Validation §6.1.1: any number with a zero fractional part, so 1.0 is an integer.
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: isJsonObject,
};

/** `type`, `enum`, `const`. */
export const compileTypeKeywords: KeywordCompiler = (context, out) => {
  const { schema } = context;
  if (hasOwn(schema, 'type')) {
    const type = schema['type'];
    const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
    if (names === undefined || names.length === 0)
      return context.fail('type', 'type must be a string or a non-empty array');
    const checks = names.map((name) => {
      // Own properties only: a schema's `"type": "constructor"` is unknown, not Object.prototype's.
      const check = typeof name === 'string' && hasOwn(TYPE_CHECKS, name) ? TYPE_CHECKS[name] : undefined;
      if (check === undefined) return context.fail('type', `unknown type ${JSON.stringify(name)}`);
      return check;
    });
    const message = `must be ${names.join(' or ')}`;
    if (checks.length === 1) {
      const check = checks[0]!;
      out.push((value, state) => check(value) || invalid(state, 'type', message));
    } else {
      out.push((value, state) => checks.some((check) => check(value)) || invalid(state, 'type', message));
    }
  }
  if (hasOwn(schema, 'enum')) {
    const values = schema['enum'];
    if (!Array.isArray(values)) return context.fail('enum', 'enum must be an array');
    const message = 'must be equal to one of the allowed values';
    if (values.every((v) => v === null || typeof v !== 'object')) {
      // SameValueZero matches JSON equality for primitives (0 and -0 are equal).
      const allowed = new Set<unknown>(values);
      out.push((value, state) => allowed.has(value) || invalid(state, 'enum', message));
    } else {
      out.push(
        (value, state) =>
          values.some((allowed) => deepEqual(value, allowed)) || invalid(state, 'enum', message),
      );
    }
  }
  if (hasOwn(schema, 'const')) {
    const expected = schema['const'];
    const message = `must be equal to constant ${truncate(canonicalKey(expected))}`;
    out.push((value, state) => deepEqual(value, expected) || invalid(state, 'const', message));
  }
};

function truncate(text: string): string {
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}
