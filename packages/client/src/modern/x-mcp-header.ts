/** RFC 9110 §5.6.2 `token` = 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not subschemas. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'default', 'enum', 'examples']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a tool's `x-mcp-header` annotations (2026-07-28 server/tools "x-mcp-header",
 * transports/streamable-http "Custom Headers from Tool Parameters"): a non-empty RFC 9110 token, unique
 * ignoring case, on a string/integer/boolean property reached from the root through `properties` only.
 * A tool that breaks these rules MUST be excluded from `tools/list`. Returns why, or undefined.
 *
 * @example
 * ```ts
 * xMcpHeaderProblem({ type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Region' } } }); // undefined
 * xMcpHeaderProblem({ type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } }); // 'x-mcp-header on "n" needs type …'
 * ```
 */
export function xMcpHeaderProblem(inputSchema: unknown): string | undefined {
  const seen = new Set<string>();
  return walk(inputSchema, '', true, seen);
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
  if ('x-mcp-header' in node) {
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
  if (!reachable || path === '') return `x-mcp-header on ${where} is not statically reachable via properties`;
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    return `x-mcp-header on ${where} is not an RFC 9110 token: ${JSON.stringify(name)}`;
  }
  if (!PRIMITIVE_TYPES.has(node['type'])) {
    return `x-mcp-header on ${where} needs type string, integer or boolean`;
  }
  const lower = name.toLowerCase();
  if (seen.has(lower)) return `x-mcp-header "${name}" is not unique (case-insensitively)`;
  seen.add(lower);
  return undefined;
}
