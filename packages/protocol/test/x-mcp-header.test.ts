import { describe, expect, it } from 'vitest';
import { xMcpHeaderProblem } from '../src/index.js';

// Spec 2026-07-28 server/tools "x-mcp-header" and basic/transports/streamable-http "Schema Extension":
// "MUST NOT be empty", "MUST match HTTP field-name token syntax (1*tchar)", "MUST NOT contain control
// characters, including carriage return (CR, \r) or line feed (LF, \n)", "MUST be case-insensitively
// unique among all x-mcp-header values in the inputSchema", "MUST only be applied to parameters with
// primitive types (integer, string, boolean). Parameters with type number are not permitted", "MUST
// only be applied to properties that are statically reachable from the schema root: reachable via a
// chain consisting solely of properties keys. The chain MUST NOT pass through items (or any other array
// keyword), composition keywords (oneOf, anyOf, allOf, not), conditional keywords (if/then/else), or $ref."
// The client (drops the tool from tools/list) and the server (refuses to register it) share this rule.

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const prop = (type: string, header: unknown) => ({ type, 'x-mcp-header': header });

const CASES: Array<[string, unknown, RegExp | undefined]> = [
  [
    'the spec example (execute_sql, Region)',
    {
      type: 'object',
      properties: {
        region: {
          type: 'string',
          description: 'The region to execute the query in',
          'x-mcp-header': 'Region',
        },
        query: { type: 'string', description: 'The SQL query to execute' },
      },
      required: ['region', 'query'],
    },
    undefined,
  ],
  ['no annotation at all', object({ a: { type: 'number' } }), undefined],
  ['integer and boolean properties', object({ a: prop('integer', 'A'), b: prop('boolean', 'B') }), undefined],
  ['every tchar', object({ a: prop('string', "!#$%&'*+-.^_`|~09AZaz") }), undefined],
  [
    'a nested property reached through properties only',
    object({ o: object({ d: prop('boolean', 'Deep') }) }),
    undefined,
  ],
  [
    'an x-mcp-header key inside default/const/enum/examples data',
    object({ a: { type: 'object', default: { 'x-mcp-header': 1 }, examples: [{ 'x-mcp-header': '' }] } }),
    undefined,
  ],
  ['empty', object({ a: prop('string', '') }), /"a" is not a non-empty RFC 9110 token/],
  ['a space', object({ a: prop('string', 'Bad Header') }), /"a" is not a non-empty RFC 9110 token/],
  ['CR LF', object({ a: prop('string', 'A\r\nB') }), /not a non-empty RFC 9110 token/],
  ['a control character', object({ a: prop('string', 'A\u0001') }), /not a non-empty RFC 9110 token/],
  ['a colon', object({ a: prop('string', 'A:B') }), /not a non-empty RFC 9110 token/],
  ['non-ASCII', object({ a: prop('string', 'Région') }), /not a non-empty RFC 9110 token/],
  ['not a string', object({ a: prop('string', 7) }), /not a non-empty RFC 9110 token: 7/],
  [
    'duplicates ignoring case',
    object({ a: prop('string', 'Id'), b: prop('integer', 'ID') }),
    /"ID" on "b" is not unique/,
  ],
  ['type number', object({ n: prop('number', 'N') }), /"n" needs type string, integer or boolean/],
  ['type object', object({ o: { ...object({}), 'x-mcp-header': 'O' } }), /"o" needs type/],
  ['no type', object({ a: { 'x-mcp-header': 'A' } }), /"a" needs type/],
  [
    'the schema root',
    { type: 'string', 'x-mcp-header': 'Root' },
    /the schema root is not statically reachable/,
  ],
  ['through items', object({ a: { type: 'array', items: prop('string', 'I') } }), /not statically reachable/],
  [
    'through prefixItems',
    object({ a: { type: 'array', prefixItems: [prop('string', 'I')] } }),
    /not statically reachable/,
  ],
  ['through oneOf', object({ a: { oneOf: [prop('string', 'O')] } }), /not statically reachable/],
  ['through anyOf', object({ a: { anyOf: [prop('string', 'O')] } }), /not statically reachable/],
  ['through allOf', object({}, { allOf: [object({ a: prop('string', 'O') })] }), /not statically reachable/],
  ['through not', object({ a: { not: prop('string', 'O') } }), /not statically reachable/],
  [
    'through if/then/else',
    object({}, { if: object({}), ['then' as string]: object({ a: prop('string', 'T') }) }),
    /not statically reachable/,
  ],
  [
    'through $defs (used by $ref)',
    object({ a: { $ref: '#/$defs/r' } }, { $defs: { r: prop('string', 'R') } }),
    /not statically reachable/,
  ],
  [
    'through additionalProperties',
    object({}, { additionalProperties: prop('string', 'A') }),
    /not statically reachable/,
  ],
];

describe('xMcpHeaderProblem: the x-mcp-header rule (spec 2026-07-28)', () => {
  it.each(CASES)('%s', (_label, schema, expected) => {
    const problem = xMcpHeaderProblem(schema);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
