import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from '../src/schemas/index.js';
import { InputRequiredResultSchema, ResultType, revisionSchemas } from '../src/schemas/index.js';
import { loadExamples } from './schemas-spec-helpers.js';

/**
 * Every official 2026-07-28 example parses with the schema of its type, exact and superset, and
 * comes back unchanged: nothing stripped, nothing added.
 */

const examples = loadExamples('2026-07-28');
const exact: Readonly<Record<string, z.ZodType>> = revisionSchemas['2026-07-28'];
const everyday = schemas as unknown as Record<string, unknown>;

/** The everyday schema for an example type; `…ResultResponse` examples are checked via their `result`. */
function supersetCheck(type: string, value: unknown): { schema: z.ZodType; input: unknown } {
  const direct = everyday[`${type}Schema`];
  if (direct instanceof z.ZodType) return { schema: direct, input: value };
  const resultType = type.replace(/Response$/, '');
  const result = (value as { result: { resultType?: string } }).result;
  const schema =
    result.resultType === ResultType.InputRequired
      ? InputRequiredResultSchema
      : everyday[`${resultType}Schema`];
  if (!(schema instanceof z.ZodType)) throw new Error(`no superset schema for ${type}`);
  return { schema, input: result };
}

describe('official 2026-07-28 examples', () => {
  it('are all present', () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  describe.each(examples)('$type/$file', ({ type, value }) => {
    it('round-trips through the exact 2026-07-28 schema', () => {
      const schema = exact[type];
      expect(schema, `no 2026-07-28 schema named ${type}`).toBeDefined();
      const parsed = (schema as z.ZodType).safeParse(value);
      expect(parsed.error?.issues).toBeUndefined();
      expect(parsed.data).toStrictEqual(value);
    });

    it('round-trips through the everyday superset schema', () => {
      const { schema, input } = supersetCheck(type, value);
      const parsed = schema.safeParse(input);
      expect(parsed.error?.issues).toBeUndefined();
      expect(parsed.data).toStrictEqual(input);
    });
  });
});
