import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues } from '../src/engine/format-issues.js';

function issuesOf(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return formatIssues(parsed.error);
}

describe('formatIssues (issue #24 item 14: say what was wrong)', () => {
  it('describes a value matching no union member by the member it came closest to', () => {
    const Form = z.object({
      mode: z.literal('form').optional(),
      message: z.string(),
      requestedSchema: z.object({}),
    });
    const Url = z.object({
      mode: z.literal('url'),
      message: z.string(),
      url: z.string(),
      elicitationId: z.string(),
    });
    const Params = z.object({ request: z.union([Form, Url]) });
    // Was "request: Invalid input".
    expect(issuesOf(Params, { request: { message: 'hi' } })).toBe(
      'request.requestedSchema: Invalid input: expected object, received undefined',
    );
  });

  it('cuts a huge key or message from the peer', () => {
    const Strict = z.strictObject({});
    const text = issuesOf(Strict, { ['k'.repeat(100_000)]: 1 });
    expect(text.length).toBeLessThan(500);
  });
});
