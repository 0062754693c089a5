/** Longest piece of a peer's string quoted back in an error message. */
const MAX_QUOTED = 100;

/**
 * A value from the wire as an error message names it: a string as is (cut when long, so a hostile
 * megabyte name is not echoed whole), anything else by its kind ("a number", "an array", "nothing").
 *
 * @example
 * ```ts
 * throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${describeValue(params['name'])}`);
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    return value.length <= MAX_QUOTED ? value : `${value.slice(0, MAX_QUOTED)}… (${value.length} characters)`;
  }
  return kindOf(value);
}

/**
 * What kind of value the peer sent, for a message about a value of the wrong kind.
 *
 * @example
 * ```ts
 * kindOf([]); // 'an array'
 * ```
 */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
