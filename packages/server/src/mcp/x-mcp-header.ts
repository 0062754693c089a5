/**
 * Registration-time checks of `x-mcp-header` annotations in a tool's `inputSchema` (spec 2026-07-28:
 * server/tools "x-mcp-header", basic/transports/streamable-http "Schema Extension"). A client drops a
 * tool whose annotation breaks a rule, so the server refuses to register it in the first place.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);

/** Throws an Error naming the tool and the rule when an `x-mcp-header` annotation is invalid. */
export function checkXMcpHeaders(tool: string, inputSchema: Record<string, unknown>): void {
  const seen = new Map<string, string>();
  walk(inputSchema, '', true, (path, value, node, reachable) => {
    const where = `tool "${tool}": x-mcp-header at ${path || '/'}`;
    if (!reachable) {
      throw new Error(`${where} is not statically reachable through "properties" only`);
    }
    if (typeof value !== 'string' || value === '' || !TOKEN.test(value)) {
      throw new Error(`${where} must be a non-empty RFC 9110 token, got ${JSON.stringify(value)}`);
    }
    const type = node['type'];
    if (typeof type !== 'string' || !PRIMITIVES.has(type)) {
      throw new Error(`${where} must annotate a string, integer or boolean property`);
    }
    const lower = value.toLowerCase();
    const previous = seen.get(lower);
    if (previous !== undefined) {
      throw new Error(`${where} duplicates "${previous}" (header names are case-insensitive)`);
    }
    seen.set(lower, value);
  });
}

type Visit = (path: string, value: unknown, node: Record<string, unknown>, reachable: boolean) => void;

function walk(node: unknown, path: string, reachable: boolean, visit: Visit): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) walk(node[i], `${path}/${i}`, false, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  // The root and property schemas reached by "properties" chains may carry the annotation.
  if (Object.hasOwn(record, 'x-mcp-header')) visit(path, record['x-mcp-header'], record, reachable);
  for (const [key, child] of Object.entries(record)) {
    if (key === 'x-mcp-header') continue;
    if (key === 'properties' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      for (const [name, schema] of Object.entries(child)) {
        walk(schema, `${path}/properties/${name}`, reachable, visit);
      }
    } else {
      walk(child, `${path}/${key}`, false, visit);
    }
  }
}
