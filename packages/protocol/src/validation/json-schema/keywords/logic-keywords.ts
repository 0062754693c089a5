import { hasOwn } from '../json-value.js';
import type { KeywordCompiler, NodeContext } from '../node-context.js';
import type { NodeValidator } from '../runtime.js';
import { Annotations, applyInPlace, invalid, probe, shouldStop } from '../runtime.js';

/** `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. */
export const compileLogicKeywords: KeywordCompiler = (context, out) => {
  const allOf = schemaList(context, 'allOf');
  if (allOf.length > 0) {
    out.push((value, state, annotations) => {
      let valid = true;
      for (const validate of allOf) {
        if (!applyInPlace(validate, value, state, annotations)) {
          valid = false;
          if (shouldStop(state)) return false;
        }
      }
      return valid;
    });
  }
  const anyOf = schemaList(context, 'anyOf');
  if (anyOf.length > 0) {
    const message = 'must match at least one schema in anyOf';
    out.push((value, state, annotations) => {
      let matched = false;
      for (const validate of anyOf) {
        // Annotations must come from every matching branch (2020-12 Core §10.2.1.2), so no early exit then.
        const own = annotations === undefined ? undefined : new Annotations();
        if (!probe(validate, value, state, own)) continue;
        matched = true;
        if (own === undefined) break;
        annotations?.merge(own);
      }
      return matched || invalid(state, 'anyOf', message);
    });
  }
  const oneOf = schemaList(context, 'oneOf');
  if (oneOf.length > 0) {
    out.push((value, state, annotations) => {
      let count = 0;
      let matchedAnnotations: Annotations | undefined;
      for (const validate of oneOf) {
        const own = annotations === undefined ? undefined : new Annotations();
        if (!probe(validate, value, state, own)) continue;
        if (++count > 1) break;
        matchedAnnotations = own;
      }
      if (count === 1) {
        if (matchedAnnotations !== undefined) annotations?.merge(matchedAnnotations);
        return true;
      }
      const matched = count === 0 ? 'none' : 'more than one';
      return invalid(state, 'oneOf', `must match exactly one schema in oneOf (matched ${matched})`);
    });
  }
  if (hasOwn(context.schema, 'not')) {
    const not = context.subschema(['not']);
    out.push(
      (value, state) =>
        !probe(not, value, state, undefined) || invalid(state, 'not', 'must NOT be valid against "not"'),
    );
  }
  const conditional = compileConditional(context);
  if (conditional !== undefined) out.push(conditional);
};

function compileConditional(context: NodeContext): NodeValidator | undefined {
  const { schema } = context;
  const hasBranch = hasOwn(schema, 'then') || hasOwn(schema, 'else');
  // A lone `if` still matters when tracking: its annotations count as evaluated (Core §10.2.2.1).
  if (!hasOwn(schema, 'if') || (!hasBranch && !context.tracking)) return undefined;
  const condition = context.subschema(['if']);
  const then = hasOwn(schema, 'then') ? context.subschema(['then']) : undefined;
  const otherwise = hasOwn(schema, 'else') ? context.subschema(['else']) : undefined;
  return (value, state, annotations) => {
    const own = annotations === undefined ? undefined : new Annotations();
    if (probe(condition, value, state, own)) {
      if (own !== undefined) annotations?.merge(own);
      return then === undefined || applyInPlace(then, value, state, annotations);
    }
    return otherwise === undefined || applyInPlace(otherwise, value, state, annotations);
  };
}

function schemaList(context: NodeContext, keyword: string): NodeValidator[] {
  if (!hasOwn(context.schema, keyword)) return [];
  const list = context.schema[keyword];
  if (!Array.isArray(list) || list.length === 0) {
    return context.fail(keyword, `${keyword} must be a non-empty array of schemas`);
  }
  return list.map((_, i) => context.subschema([keyword, i]));
}
