import { hasOwn, isJsonObject } from '../json-value.js';
import type { KeywordCompiler, NodeContext } from '../node-context.js';
import type { NodeValidator } from '../runtime.js';
import { applyInPlace, invalid, probe, report } from '../runtime.js';
import { nonNegativeInteger } from './keyword-values.js';
import { compileProperties } from './properties-keyword.js';

/**
 * `required`, `properties`/`patternProperties`/`additionalProperties`, `propertyNames`,
 * `minProperties`, `maxProperties`, `dependentRequired`, `dependentSchemas` (draft-07: `dependencies`).
 */
export const compileObjectKeywords: KeywordCompiler = (context, out) => {
  const { schema } = context;
  if (hasOwn(schema, 'required')) {
    const required = stringArray(context, 'required', schema['required']);
    if (required.length > 0) out.push(requiredValidator('required', required));
  }
  const properties = compileProperties(context);
  if (properties !== undefined) out.push(properties);
  if (hasOwn(schema, 'propertyNames')) {
    const names = context.subschema(['propertyNames']);
    out.push((value, state) => {
      if (!isJsonObject(value)) return true;
      let valid = true;
      for (const key of Object.keys(value)) {
        if (probe(names, key, state, undefined)) continue;
        valid = false;
        if (report(state, 'propertyNames', `property name '${key}' is invalid`, key)) return false;
      }
      return valid;
    });
  }
  for (const [keyword, below] of [
    ['minProperties', false],
    ['maxProperties', true],
  ] as const) {
    if (!hasOwn(schema, keyword)) continue;
    const limit = nonNegativeInteger(context, keyword);
    const message = `must NOT have ${below ? 'more' : 'fewer'} than ${limit} properties`;
    out.push((value, state) => {
      if (!isJsonObject(value)) return true;
      const count = Object.keys(value).length;
      return (below ? count <= limit : count >= limit) || invalid(state, keyword, message);
    });
  }
  compileDependencies(context, out);
};

function compileDependencies(context: NodeContext, out: NodeValidator[]): void {
  const { schema } = context;
  const keywords =
    context.dialect === '2020-12'
      ? (['dependentRequired', 'dependentSchemas'] as const)
      : (['dependencies'] as const);
  for (const keyword of keywords) {
    if (!hasOwn(schema, keyword)) continue;
    const map = objectValue(context, keyword);
    for (const trigger of Object.keys(map)) {
      const dependency = map[trigger];
      // draft-07 `dependencies` mixes both forms: an array lists names, anything else is a schema.
      if (keyword === 'dependentRequired' || (keyword === 'dependencies' && Array.isArray(dependency))) {
        const names = stringArray(context, keyword, dependency);
        const check = requiredValidator(keyword, names);
        out.push((value, state, annotations) =>
          isJsonObject(value) && hasOwn(value, trigger) ? check(value, state, annotations) : true,
        );
      } else {
        const validate = context.subschema([keyword, trigger]);
        out.push((value, state, annotations) =>
          isJsonObject(value) && hasOwn(value, trigger)
            ? applyInPlace(validate, value, state, annotations)
            : true,
        );
      }
    }
  }
}

function requiredValidator(keyword: string, names: readonly string[]): NodeValidator {
  return (value, state) => {
    if (!isJsonObject(value)) return true;
    let valid = true;
    for (const name of names) {
      if (hasOwn(value, name)) continue;
      valid = false;
      // The error points at the missing member, as a form UI would want to highlight it.
      if (report(state, keyword, `must have required property '${name}'`, name)) return false;
    }
    return valid;
  };
}

function stringArray(context: NodeContext, keyword: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    return context.fail(keyword, `${keyword} must be an array of strings`);
  }
  return value;
}

function objectValue(context: NodeContext, keyword: string): Record<string, unknown> {
  const value = context.schema[keyword];
  if (isJsonObject(value)) return value;
  return context.fail(keyword, `${keyword} must be an object`);
}
