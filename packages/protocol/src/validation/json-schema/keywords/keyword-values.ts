import type { NodeContext } from '../node-context.js';

/**
 * ECMA-262 regex with the `u` flag, as 2020-12 Validation §6.3.3 asks for ECMA-262 syntax and the
 * flag makes `.` and classes work on code points. No `g`/`y`, so `test` keeps no state.
 */
export function compilePattern(context: NodeContext, keyword: string, source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch (error) {
    return context.fail(
      keyword,
      `invalid regular expression ${JSON.stringify(source)}: ${(error as Error).message}`,
    );
  }
}

export function nonNegativeInteger(context: NodeContext, keyword: string): number {
  const value = context.schema[keyword];
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  return context.fail(keyword, `${keyword} must be a non-negative integer`);
}
