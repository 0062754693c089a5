import { hasOwn } from '../json-value.js';
import type { KeywordCompiler, NodeContext } from '../node-context.js';
import type { NodeValidator } from '../runtime.js';
import { invalid } from '../runtime.js';
import { isMultipleOf } from './multiple-of.js';

type Comparison = (value: number, limit: number) => boolean;

const BOUNDS: ReadonlyArray<readonly [keyword: string, compare: Comparison, relation: string]> = [
  ['minimum', (value, limit) => value >= limit, '>='],
  ['maximum', (value, limit) => value <= limit, '<='],
  ['exclusiveMinimum', (value, limit) => value > limit, '>'],
  ['exclusiveMaximum', (value, limit) => value < limit, '<'],
];

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (numeric forms). */
export const compileNumberKeywords: KeywordCompiler = (context, out) => {
  for (const [keyword, compare, relation] of BOUNDS) {
    if (!hasOwn(context.schema, keyword)) continue;
    const limit = numberValue(context, keyword);
    const message = `must be ${relation} ${limit}`;
    out.push(bound(keyword, limit, compare, message));
  }
  if (hasOwn(context.schema, 'multipleOf')) {
    const divisor = numberValue(context, 'multipleOf');
    if (divisor <= 0) context.fail('multipleOf', 'multipleOf must be greater than 0');
    const message = `must be a multiple of ${divisor}`;
    out.push(
      (value, state) =>
        typeof value !== 'number' || isMultipleOf(value, divisor) || invalid(state, 'multipleOf', message),
    );
  }
};

function bound(keyword: string, limit: number, compare: Comparison, message: string): NodeValidator {
  return (value, state) =>
    typeof value !== 'number' || compare(value, limit) || invalid(state, keyword, message);
}

function numberValue(context: NodeContext, keyword: string): number {
  const value = context.schema[keyword];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // The boolean exclusiveMinimum/exclusiveMaximum of draft-04 belong to a dialect we do not accept.
  return context.fail(keyword, `${keyword} must be a number`);
}
