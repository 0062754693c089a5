import { hasOwn, isJsonObject } from '../json-value.js';
import type { NodeContext } from '../node-context.js';
import type { NodeValidator } from '../runtime.js';
import { invalid, shouldStop, validateChild } from '../runtime.js';
import { compilePattern } from './keyword-values.js';

/**
 * `properties`, `patternProperties` and `additionalProperties` as one pass over the instance,
 * since `additionalProperties` is defined by what the other two matched (2020-12 Core §10.3.2.3).
 */
export function compileProperties(context: NodeContext): NodeValidator | undefined {
  const { schema } = context;
  const names = Object.keys(schemaMap(context, 'properties'));
  const validators = names.map((key) => context.subschema(['properties', key]));
  const patternMap = schemaMap(context, 'patternProperties');
  const patterns = Object.keys(patternMap).map((source) =>
    compilePattern(context, 'patternProperties', source),
  );
  const patternValidators = Object.keys(patternMap).map((source) =>
    context.subschema(['patternProperties', source]),
  );
  const hasAdditional = hasOwn(schema, 'additionalProperties');
  if (names.length === 0 && patterns.length === 0 && !hasAdditional) return undefined;
  const forbidAdditional = schema['additionalProperties'] === false;
  if (patterns.length === 0 && (!hasAdditional || forbidAdditional)) {
    // The common tool-schema shape: walk the schema's few properties rather than the instance's
    // keys, and only look for extra keys when the instance has more keys than it matched.
    const named = new Set(names);
    const count = names.length;
    return (value, state, annotations) => {
      if (!isJsonObject(value)) return true;
      let valid = true;
      let present = 0;
      for (let i = 0; i < count; i++) {
        const key = names[i]!;
        if (!hasOwn(value, key)) continue;
        present++;
        annotations?.addProp(key);
        if (!validateChild(validators[i]!, value[key], key, state)) {
          valid = false;
          if (shouldStop(state)) return false;
        }
      }
      if (!forbidAdditional) return valid;
      let keys = 0;
      for (const _ in value) keys++;
      if (keys === present) return valid;
      for (const key of Object.keys(value)) {
        if (named.has(key)) continue;
        valid = invalid(state, 'additionalProperties', `must NOT have additional property '${key}'`, key);
        if (shouldStop(state)) return false;
      }
      return valid;
    };
  }
  const byName = new Map(names.map((name, i) => [name, validators[i]!]));
  const additional =
    hasAdditional && !forbidAdditional ? context.subschema(['additionalProperties']) : undefined;
  return (value, state, annotations) => {
    if (!isJsonObject(value)) return true;
    let valid = true;
    for (const key of Object.keys(value)) {
      const child = value[key];
      let matched = false;
      const validate = byName.get(key);
      if (validate !== undefined) {
        matched = true;
        if (!validateChild(validate, child, key, state)) {
          valid = false;
          if (shouldStop(state)) return false;
        }
      }
      for (let i = 0; i < patterns.length; i++) {
        if (!patterns[i]!.test(key)) continue;
        matched = true;
        if (!validateChild(patternValidators[i]!, child, key, state)) {
          valid = false;
          if (shouldStop(state)) return false;
        }
      }
      if (!matched) {
        if (forbidAdditional) {
          valid = invalid(state, 'additionalProperties', `must NOT have additional property '${key}'`, key);
          if (shouldStop(state)) return false;
        } else if (additional !== undefined && !validateChild(additional, child, key, state)) {
          valid = false;
          if (shouldStop(state)) return false;
        }
      }
      if (annotations !== undefined && (matched || hasAdditional)) annotations.addProp(key);
    }
    return valid;
  };
}

function schemaMap(context: NodeContext, keyword: string): Record<string, unknown> {
  if (!hasOwn(context.schema, keyword)) return {};
  const map = context.schema[keyword];
  if (!isJsonObject(map)) return context.fail(keyword, `${keyword} must be an object of schemas`);
  return map;
}
