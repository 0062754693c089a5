import type { z } from 'zod';

const MAX_ISSUES = 3;
/** Longest path or message quoted from one issue: paths are the peer's keys, and may be huge. */
const MAX_PART = 200;

type Issue = z.core.$ZodIssue;

/**
 * A one-line summary of a schema failure, e.g. `name: Invalid input: expected string, received undefined`.
 * Bounded to a few issues: the text goes on the wire in -32602 responses, and a full zod dump would be
 * both huge and a leak of the schema's internals. A value matching no member of a union is described by
 * the member it came closest to (fewest issues), so the reader learns which field was wrong rather than
 * just "Invalid input".
 *
 * @example
 * ```ts
 * const parsed = CallToolRequestParamsSchema.safeParse({ arguments: {} });
 * if (!parsed.success) console.log(formatIssues(parsed.error));
 * // name: Invalid input: expected string, received undefined
 * ```
 */
export function formatIssues(error: z.ZodError): string {
  const issues: Array<{ path: readonly PropertyKey[]; message: string }> = [];
  for (const issue of error.issues) collect(issue, [], issues);
  const parts: string[] = [];
  for (let i = 0; i < issues.length && i < MAX_ISSUES; i++) {
    const issue = issues[i]!;
    const path = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    parts.push(`${cut(path)}: ${cut(issue.message)}`);
  }
  const more = issues.length - MAX_ISSUES;
  return more > 0 ? `${parts.join('; ')} (+${more} more)` : parts.join('; ');
}

function collect(
  issue: Issue,
  prefix: readonly PropertyKey[],
  out: Array<{ path: readonly PropertyKey[]; message: string }>,
): void {
  const path = prefix.length === 0 ? issue.path : [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    let closest = issue.errors[0]!;
    for (const branch of issue.errors) if (branch.length < closest.length) closest = branch;
    if (closest.length > 0) {
      for (const inner of closest) collect(inner, path, out);
      return;
    }
  }
  out.push({ path, message: issue.message });
}

function cut(text: string): string {
  return text.length <= MAX_PART ? text : `${text.slice(0, MAX_PART)}…`;
}
