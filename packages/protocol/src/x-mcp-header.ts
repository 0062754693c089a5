/** RFC 9110 §5.6.2 `token` = 1*tchar (so never empty, never a control character, CR or LF). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not subschemas: an `x-mcp-header` key inside is data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'default', 'enum', 'examples']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one `x-mcp-header` rule, shared by the client (which drops a tool that breaks it from
 * `tools/list`) and the server (which refuses to register one). Spec 2026-07-28 server/tools
 * "x-mcp-header" and basic/transports/streamable-http "Schema Extension": the value is a non-empty
 * RFC 9110 token, unique ignoring case within the `inputSchema`, on a string/integer/boolean property
 * statically reachable from the root "via a chain consisting solely of `properties` keys" (never the
 * root itself, never through `items`, `oneOf`/`anyOf`/`allOf`/`not`, `if`/`then`/`else` or `$ref`).
 * Returns why the schema breaks the rule (the first problem found), or undefined when it does not.
 *
 * @example
 * ```ts
 * xMcpHeaderProblem({ type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Region' } } }); // undefined
 * xMcpHeaderProblem({ type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } });
 * // 'x-mcp-header on "n" needs type string, integer or boolean'
 * ```
 */
export function xMcpHeaderProblem(inputSchema: unknown): string | undefined {
  return walk(inputSchema, '', true, new Set<string>());
}

function walk(node: unknown, path: string, reachable: boolean, seen: Set<string>): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = walk(item, path, false, seen);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if (Object.hasOwn(node, 'x-mcp-header')) {
    const problem = checkAnnotation(node, path, reachable, seen);
    if (problem !== undefined) return problem;
  }
  for (const key of Object.keys(node)) {
    if (DATA_KEYWORDS.has(key) || key === 'x-mcp-header') continue;
    const value = node[key];
    if (key === 'properties' && isObject(value)) {
      // Only a chain of `properties` keys keeps a parameter statically reachable.
      for (const name of Object.keys(value)) {
        const problem = walk(value[name], path === '' ? name : `${path}.${name}`, reachable, seen);
        if (problem !== undefined) return problem;
      }
    } else {
      const problem = walk(value, path, false, seen);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function checkAnnotation(
  node: Record<string, unknown>,
  path: string,
  reachable: boolean,
  seen: Set<string>,
): string | undefined {
  const name = node['x-mcp-header'];
  const where = path === '' ? 'the schema root' : `"${path}"`;
  // The root is not a parameter: only properties reached through `properties` may be mirrored.
  if (!reachable || path === '') return `x-mcp-header on ${where} is not statically reachable via properties`;
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    return `x-mcp-header on ${where} is not a non-empty RFC 9110 token: ${JSON.stringify(name)}`;
  }
  if (!PRIMITIVE_TYPES.has(node['type'])) {
    return `x-mcp-header on ${where} needs type string, integer or boolean`;
  }
  const lower = name.toLowerCase();
  if (seen.has(lower)) return `x-mcp-header "${name}" on ${where} is not unique (case-insensitively)`;
  seen.add(lower);
  return undefined;
}
