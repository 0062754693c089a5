import { hasOwn } from '../json-value.js';
import type { KeywordCompiler } from '../node-context.js';

/**
 * `$ref` (in place, alongside siblings in 2020-12; alone in draft-07) and `$dynamicRef`.
 *
 * `$dynamicRef` is resolved statically, which is exact when the document is a single schema
 * resource: the outermost dynamic scope is then that resource, whose `$dynamicAnchor` is the
 * static target. With embedded `$id` resources it would need the runtime dynamic scope, which
 * this validator does not track, so that case is a compile error rather than a wrong answer.
 */
export const compileRefKeywords: KeywordCompiler = (context, out) => {
  const { schema } = context;
  if (hasOwn(schema, '$ref')) {
    const reference = schema['$ref'];
    if (typeof reference !== 'string') return context.fail('$ref', '$ref must be a string');
    out.push(context.reference('$ref', reference));
  }
  if (context.dialect === '2020-12' && hasOwn(schema, '$dynamicRef')) {
    const reference = schema['$dynamicRef'];
    if (typeof reference !== 'string') return context.fail('$dynamicRef', '$dynamicRef must be a string');
    if (context.resourceCount > 1) {
      context.fail('$dynamicRef', '$dynamicRef is only supported in schemas without embedded $id resources');
    }
    out.push(context.reference('$dynamicRef', reference));
  }
};
