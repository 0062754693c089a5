/**
 * `x-mcp-header` annotations of a tool's `inputSchema` (2026-07-28 streamable-http, "Custom Headers from
 * Tool Parameters"): which argument, at which `properties` path, is mirrored into `Mcp-Param-{name}`.
 */

/**
 * One mirrored argument: header `Mcp-Param-{name}` carries the value at `path` in the call arguments.
 *
 * @example
 * ```ts
 * const headers: readonly ParamHeader[] = paramHeadersOf(tool.inputSchema);
 * // e.g. [{ name: 'Region', path: ['region'] }] → `Mcp-Param-Region: <arguments.region>`
 * ```
 */
export interface ParamHeader {
  /** The `x-mcp-header` value (the header name without its `Mcp-Param-` prefix). */
  name: string;
  /** Chain of `properties` keys from the schema root to the annotated property. */
  path: readonly string[];
}

// RFC 9110 §5.6.2 `tchar`.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES = new Set(['string', 'integer', 'boolean']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collect(schema: Record<string, unknown>, path: string[], out: ParamHeader[]): void {
  const properties = schema['properties'];
  if (!isObject(properties)) return;
  for (const [key, child] of Object.entries(properties)) {
    if (!isObject(child)) continue;
    const annotation = child['x-mcp-header'];
    if (annotation !== undefined) {
      if (typeof annotation !== 'string' || !TOKEN.test(annotation)) {
        throw new TypeError(`x-mcp-header on "${[...path, key].join('.')}" is not an HTTP token`);
      }
      if (!PRIMITIVE_TYPES.has(String(child['type']))) {
        throw new TypeError(
          `x-mcp-header on "${[...path, key].join('.')}" needs type string, integer or boolean`,
        );
      }
      out.push({ name: annotation, path: [...path, key] });
    }
    collect(child, [...path, key], out);
  }
}

/**
 * Reads the annotations of one tool schema. Throws `TypeError` when an annotation breaks the spec's
 * constraints (not a token, not a primitive type, duplicate name); clients then drop that tool from
 * `tools/list` ("Clients ... MUST reject tool definitions where any x-mcp-header value violates these
 * constraints"). Annotations reachable only through `items`, `$ref` or composition keywords are not
 * walked, so they are never mirrored.
 *
 * @example
 * ```ts
 * paramHeadersOf({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * // [{ name: 'Region', path: ['region'] }]
 * ```
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const out: ParamHeader[] = [];
  if (!isObject(inputSchema)) return out;
  collect(inputSchema, [], out);
  const seen = new Set<string>();
  for (const { name } of out) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw new TypeError(`x-mcp-header "${name}" is not unique (case-insensitively)`);
    seen.add(lower);
  }
  return out;
}

/** The argument value at `path`, or undefined when absent or `null` (the header is then omitted). */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value === null ? undefined : value;
}

/** The string form of a mirrored primitive ("Type conversion"); undefined for any other type. */
export function paramValueString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}
