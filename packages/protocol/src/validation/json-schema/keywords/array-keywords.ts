import { canonicalKey, deepEqual, hasOwn } from '../json-value.js';
import type { KeywordCompiler, NodeContext } from '../node-context.js';
import type { NodeValidator } from '../runtime.js';
import { invalid, probe, shouldStop, validateChild } from '../runtime.js';
import { nonNegativeInteger } from './keyword-values.js';

/**
 * `prefixItems`/`items` (2020-12) or array-`items`/`additionalItems` (draft-07), `contains` with
 * `minContains`/`maxContains`, `minItems`, `maxItems`, `uniqueItems`.
 */
export const compileArrayKeywords: KeywordCompiler = (context, out) => {
  const items = compileItems(context);
  if (items !== undefined) out.push(items);
  const contains = compileContains(context);
  if (contains !== undefined) out.push(contains);
  const { schema } = context;
  if (hasOwn(schema, 'minItems')) {
    const min = nonNegativeInteger(context, 'minItems');
    const message = `must NOT have fewer than ${min} items`;
    out.push(
      (value, state) => !Array.isArray(value) || value.length >= min || invalid(state, 'minItems', message),
    );
  }
  if (hasOwn(schema, 'maxItems')) {
    const max = nonNegativeInteger(context, 'maxItems');
    const message = `must NOT have more than ${max} items`;
    out.push(
      (value, state) => !Array.isArray(value) || value.length <= max || invalid(state, 'maxItems', message),
    );
  }
  if (hasOwn(schema, 'uniqueItems')) {
    const unique = schema['uniqueItems'];
    if (typeof unique !== 'boolean') context.fail('uniqueItems', 'uniqueItems must be a boolean');
    if (unique) {
      out.push((value, state) => {
        if (!Array.isArray(value) || value.length < 2) return true;
        const duplicate = findDuplicate(value);
        if (duplicate === undefined) return true;
        const [first, second] = duplicate;
        return invalid(
          state,
          'uniqueItems',
          `must NOT have duplicate items (items ${first} and ${second} are equal)`,
        );
      });
    }
  }
};

function compileItems(context: NodeContext): NodeValidator | undefined {
  const { schema } = context;
  let prefix: NodeValidator[] = [];
  let restKeyword: string | undefined;
  const items = schema['items'];
  if (context.dialect === '2020-12') {
    if (hasOwn(schema, 'prefixItems')) {
      const prefixItems = schema['prefixItems'];
      if (!Array.isArray(prefixItems))
        return context.fail('prefixItems', 'prefixItems must be an array of schemas');
      prefix = prefixItems.map((_, i) => context.subschema(['prefixItems', i]));
    }
    if (Array.isArray(items))
      return context.fail('items', 'items must be a schema in 2020-12 (use prefixItems)');
    if (hasOwn(schema, 'items')) restKeyword = 'items';
  } else if (Array.isArray(items)) {
    // draft-07 Validation §6.4.1–2: array-form items is a tuple; additionalItems covers the rest.
    prefix = items.map((_, i) => context.subschema(['items', i]));
    if (hasOwn(schema, 'additionalItems')) restKeyword = 'additionalItems';
  } else if (hasOwn(schema, 'items')) {
    restKeyword = 'items';
  }
  if (prefix.length === 0 && restKeyword === undefined) return undefined;
  const prefixLength = prefix.length;
  if (restKeyword !== undefined && schema[restKeyword] === false) {
    // Say "too many items" once instead of "false schema" per extra item.
    const keyword = restKeyword;
    const message = `must NOT have more than ${prefixLength} items`;
    const validatePrefix = prefixValidator(prefix);
    return (value, state, annotations) => {
      if (!Array.isArray(value)) return true;
      let valid = validatePrefix(value, state, annotations);
      if (value.length > prefixLength) valid = invalid(state, keyword, message);
      else if (annotations !== undefined) annotations.allItems = true;
      return valid;
    };
  }
  const rest = restKeyword === undefined ? undefined : context.subschema([restKeyword]);
  if (rest === undefined) return prefixValidator(prefix);
  return (value, state, annotations) => {
    if (!Array.isArray(value)) return true;
    let valid = true;
    for (let i = 0; i < value.length; i++) {
      const validate = i < prefixLength ? prefix[i]! : rest;
      if (!validateChild(validate, value[i], i, state)) {
        valid = false;
        if (shouldStop(state)) return false;
      }
    }
    if (annotations !== undefined) annotations.allItems = true;
    return valid;
  };
}

function prefixValidator(prefix: readonly NodeValidator[]): NodeValidator {
  return (value, state, annotations) => {
    if (!Array.isArray(value)) return true;
    const length = Math.min(prefix.length, value.length);
    let valid = true;
    for (let i = 0; i < length; i++) {
      if (!validateChild(prefix[i]!, value[i], i, state)) {
        valid = false;
        if (shouldStop(state)) return false;
      }
    }
    if (annotations !== undefined && length > annotations.prefixItems) annotations.prefixItems = length;
    return valid;
  };
}

function compileContains(context: NodeContext): NodeValidator | undefined {
  const { schema } = context;
  if (!hasOwn(schema, 'contains')) return undefined;
  const contains = context.subschema(['contains']);
  // minContains/maxContains are 2019-09+ keywords; in draft-07 they are unknown annotations.
  const modern = context.dialect === '2020-12';
  const min = modern && hasOwn(schema, 'minContains') ? nonNegativeInteger(context, 'minContains') : 1;
  const max =
    modern && hasOwn(schema, 'maxContains') ? nonNegativeInteger(context, 'maxContains') : undefined;
  const minMessage = `must contain at least ${min} valid item${min === 1 ? '' : 's'}`;
  const maxMessage = `must contain at most ${max} valid item${max === 1 ? '' : 's'}`;
  return (value, state, annotations) => {
    if (!Array.isArray(value)) return true;
    // Count every match when maxContains caps them or unevaluatedItems needs their indices.
    const exhaustive = max !== undefined || annotations !== undefined;
    let count = 0;
    for (let i = 0; i < value.length; i++) {
      state.path.push(i);
      const matched = probe(contains, value[i], state, undefined);
      state.path.pop();
      if (!matched) continue;
      count++;
      annotations?.addItemIndex(i);
      if (!exhaustive && count >= min) return true;
    }
    if (count < min) return invalid(state, min === 1 ? 'contains' : 'minContains', minMessage);
    if (max !== undefined && count > max) return invalid(state, 'maxContains', maxMessage);
    return true;
  };
}

/** Indices of the first pair of equal items, or undefined. Hashes big arrays to stay O(n). */
function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  if (items.length <= 8) {
    for (let j = 1; j < items.length; j++) {
      for (let i = 0; i < j; i++) if (deepEqual(items[i], items[j])) return [i, j];
    }
    return undefined;
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = canonicalKey(items[i]);
    const first = seen.get(key);
    if (first !== undefined) return [first, i];
    seen.set(key, i);
  }
  return undefined;
}
