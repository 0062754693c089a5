import { FORMAT_CHECKS } from '../formats.js';
import { hasOwn } from '../json-value.js';
import type { KeywordCompiler } from '../node-context.js';
import { invalid } from '../runtime.js';
import { compilePattern, nonNegativeInteger } from './keyword-values.js';

/** `minLength`, `maxLength`, `pattern`, and `format` (asserted only when enabled). */
export const compileStringKeywords: KeywordCompiler = (context, out) => {
  const { schema } = context;
  if (hasOwn(schema, 'minLength')) {
    const min = nonNegativeInteger(context, 'minLength');
    const message = `must NOT have fewer than ${min} characters`;
    out.push((value, state) => {
      if (typeof value !== 'string') return true;
      // Code points never outnumber UTF-16 units and are at least half of them: count only if unsure.
      if (value.length < min) return invalid(state, 'minLength', message);
      if (value.length >= 2 * min || codePointLength(value) >= min) return true;
      return invalid(state, 'minLength', message);
    });
  }
  if (hasOwn(schema, 'maxLength')) {
    const max = nonNegativeInteger(context, 'maxLength');
    const message = `must NOT have more than ${max} characters`;
    out.push((value, state) => {
      if (typeof value !== 'string' || value.length <= max || codePointLength(value) <= max) return true;
      return invalid(state, 'maxLength', message);
    });
  }
  if (hasOwn(schema, 'pattern')) {
    const source = schema['pattern'];
    if (typeof source !== 'string') return context.fail('pattern', 'pattern must be a string');
    const regex = compilePattern(context, 'pattern', source);
    const message = `must match pattern ${JSON.stringify(source)}`;
    out.push(
      (value, state) => typeof value !== 'string' || regex.test(value) || invalid(state, 'pattern', message),
    );
  }
  const format = schema['format'];
  if (context.assertFormats && typeof format === 'string') {
    const check = FORMAT_CHECKS.get(format);
    if (check === undefined) return;
    const message = `must match format "${format}"`;
    out.push(
      (value, state) => typeof value !== 'string' || check(value) || invalid(state, 'format', message),
    );
  }
};

/** Length in Unicode code points (2020-12 Validation §6.3.1), not UTF-16 units. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
