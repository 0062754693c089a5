/**
 * A zod schema of any major version (3 or 4) as the official SDK 1.x API takes it: something that parses.
 *
 * @example
 * ```ts
 * const schema: AnySchema = ListToolsRequestSchema;
 * ```
 */
export interface AnySchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/** What a zod 3 or zod 4 literal looks like inside: `.value` (both), `._def.value` (zod 3). */
interface LiteralLike {
  value?: unknown;
  _def?: { value?: unknown; values?: unknown[] };
}

/**
 * The method a request or notification schema stands for: its `method` literal (how the official
 * `setRequestHandler(ListToolsRequestSchema, …)` keys its handlers). Works for x-mcp's schemas and for
 * an application's own zod 3 or zod 4 `z.object({ method: z.literal('x/y'), … })`.
 *
 * @example
 * ```ts
 * methodOf(ListToolsRequestSchema); // 'tools/list'
 * ```
 */
export function methodOf(schema: AnySchema): string {
  const shape = (schema as { shape?: Record<string, LiteralLike> }).shape;
  const literal = shape?.['method'];
  const value = literal?.value ?? literal?._def?.value ?? literal?._def?.values?.[0];
  if (typeof value !== 'string') {
    throw new TypeError(
      'Schema is missing a method literal: pass a z.object({ method: z.literal(…) }) schema',
    );
  }
  return value;
}

/**
 * A parse error as one line (zod 3 and 4 both carry `issues` with `path` and `message`).
 *
 * @example
 * ```ts
 * const parsed = schema.safeParse(value);
 * if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, describeIssues(parsed.error));
 * ```
 */
export function describeIssues(error: unknown): string {
  const issues = (error as { issues?: Array<{ path?: unknown[]; message?: string }> } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return String(error);
  return issues
    .map((issue) => `${(issue.path ?? []).map(String).join('.') || '(root)'}: ${issue.message ?? 'invalid'}`)
    .join('; ');
}
