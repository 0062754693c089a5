// The completable helpers of 1.x `server/completable.js` beyond `completable` itself.
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import {
  type CompletableDef,
  completable,
  getCompleter,
  isCompletable,
  McpZodTypeKind,
  unwrapCompletable,
} from '../src/server/completable.js';

describe('server/completable.js', () => {
  it('unwrapCompletable gives the schema back, parsing as before, its completer still found', async () => {
    const schema = completable(z.string().min(2), (value) =>
      ['go', 'rust'].filter((l) => l.startsWith(value)),
    );
    const inner = unwrapCompletable(schema);
    expect(inner.parse('go')).toBe('go');
    expect(inner.safeParse('g').success).toBe(false);
    expect(isCompletable(inner)).toBe(true);
    expect(await getCompleter(inner)?.('r', {})).toEqual(['rust']);
  });

  it("McpZodTypeKind.Completable is 1.x's tag, usable in a CompletableDef", () => {
    const schema = z.string();
    const def: CompletableDef<typeof schema> = {
      type: schema,
      complete: () => [],
      typeName: McpZodTypeKind.Completable,
    };
    expect(def.typeName).toBe('McpCompletable');
    expect(isCompletable(z.number())).toBe(false);
  });
});
