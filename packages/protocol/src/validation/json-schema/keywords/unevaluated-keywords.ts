import { hasOwn, isJsonObject } from '../json-value.js';
import type { KeywordCompiler } from '../node-context.js';
import { Annotations, invalid, shouldStop, validateChild } from '../runtime.js';

/**
 * `unevaluatedItems` and `unevaluatedProperties` (2020-12 Core §11). They run last in their node
 * and read the annotations its other keywords and successful in-place subschemas collected.
 */
export const compileUnevaluatedKeywords: KeywordCompiler = (context, out) => {
  if (context.dialect !== '2020-12') return;
  const { schema } = context;
  if (hasOwn(schema, 'unevaluatedItems')) {
    const forbid = schema['unevaluatedItems'] === false;
    const validate = context.subschema(['unevaluatedItems']);
    out.push((value, state, annotations) => {
      if (!Array.isArray(value)) return true;
      const evaluated = annotations ?? new Annotations();
      let valid = true;
      for (let i = evaluated.prefixItems; i < value.length && !evaluated.allItems; i++) {
        if (evaluated.isItemEvaluated(i)) continue;
        if (forbid) valid = invalid(state, 'unevaluatedItems', 'must NOT have unevaluated items', i);
        else if (!validateChild(validate, value[i], i, state)) valid = false;
        if (!valid && shouldStop(state)) return false;
      }
      evaluated.allItems = true;
      return valid;
    });
  }
  if (hasOwn(schema, 'unevaluatedProperties')) {
    const forbid = schema['unevaluatedProperties'] === false;
    const validate = context.subschema(['unevaluatedProperties']);
    out.push((value, state, annotations) => {
      if (!isJsonObject(value)) return true;
      const evaluated = annotations ?? new Annotations();
      if (evaluated.allProps) return true;
      let valid = true;
      for (const key of Object.keys(value)) {
        if (evaluated.isPropEvaluated(key)) continue;
        if (forbid) {
          valid = invalid(state, 'unevaluatedProperties', `must NOT have unevaluated property '${key}'`, key);
        } else if (!validateChild(validate, value[key], key, state)) {
          valid = false;
        }
        if (!valid && shouldStop(state)) return false;
      }
      evaluated.allProps = true;
      return valid;
    });
  }
};
