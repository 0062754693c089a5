import type { z } from 'zod';

const MAX_ISSUES = 3;

/**
 * A one-line summary of a schema failure, e.g. `name: Invalid input: expected string, received undefined`.
 * Bounded to a few issues: the text goes on the wire in -32602 responses, and a full zod dump would be
 * both huge and a leak of the schema's internals.
 *
 * @example
 * ```ts
 * const parsed = CallToolRequestParamsSchema.safeParse({ arguments: {} });
 * if (!parsed.success) console.log(formatIssues(parsed.error));
 * // name: Invalid input: expected string, received undefined
 * ```
 */
export function formatIssues(error: z.ZodError): string {
  const { issues } = error;
  const parts: string[] = [];
  for (let i = 0; i < issues.length && i < MAX_ISSUES; i++) {
    const issue = issues[i]!;
    const path = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    parts.push(`${path}: ${issue.message}`);
  }
  const more = issues.length - MAX_ISSUES;
  return more > 0 ? `${parts.join('; ')} (+${more} more)` : parts.join('; ');
}
