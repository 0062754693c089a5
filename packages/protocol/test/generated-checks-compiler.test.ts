import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compileChecks } from '../scripts/generate-checks.js';
import { assertExact, mutate, mutation, valid, type ZodLike } from './zod-arbitraries.js';

/**
 * The checks generator on schemas of its own: constructs `@x/protocol` does not use today (recursion
 * through getters, exclusive bounds, overlapping union options, …) stay exact, and the ones it does not
 * know (transforms, string checks, stripping objects) compile to `false`, which sends every value to zod.
 */

type Checks = Record<string, (value: unknown) => boolean>;

/** Compiles `schemas` to checks and loads the module (TypeScript → CommonJS, run in place). */
function load(schemas: Record<string, z.ZodType>): Checks {
  const { checks } = compileChecks(new Map(Object.entries(schemas) as unknown as [string, ZodLike][]));
  const js = ts.transpileModule(checks, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS },
  }).outputText;
  const exports: Checks = {};
  new Function('exports', js)(exports);
  return exports;
}

const Tree: z.ZodType = z.lazy(() =>
  z.looseObject({ label: z.string(), children: z.array(Tree).optional() }),
);
const Cat = z.looseObject({
  name: z.string(),
  get kids() {
    return z.array(Cat).optional();
  },
});
const supported = {
  Tree,
  Cat,
  Shape: z.discriminatedUnion('kind', [
    z.looseObject({ kind: z.literal('a'), n: z.number().int().min(0).max(10) }),
    z.looseObject({ kind: z.literal('b'), s: z.string().nullable() }),
  ]),
  // Overlapping options: zod takes the first that accepts, even if it changes the value.
  Either: z.union([z.looseObject({ a: z.string() }), z.looseObject({ b: z.looseObject({}) })]),
  Open: z.number().gt(0).lt(1),
  Pair: z.array(z.string()).min(1).max(2),
  Scores: z.record(z.string(), z.number()),
  Pick: z.enum(['x', 'y']),
  Mixed: z.literal([1, 'one', null, false]),
  Data: z.looseObject({ data: z.unknown(), note: z.unknown().optional() }),
};
const unsupported = {
  NonEmpty: z.string().min(1),
  Length: z.looseObject({ a: z.string().transform((s) => s.length) }),
  Strip: z.object({ a: z.string() }),
  Defaulted: z.looseObject({ a: z.string().default('x') }),
};
const checks = load({ ...supported, ...unsupported });

describe('generated checks of other schemas', () => {
  it.each(Object.keys(supported))('%s is exact', (name) => {
    const schema = supported[name as keyof typeof supported] as unknown as ZodLike;
    const check = checks[`is${name}`] as (value: unknown) => boolean;
    let accepted = 0;
    fc.assert(
      fc.property(valid(schema), (value) => {
        assertExact(name, schema, check, value);
        if (check(value)) accepted++;
      }),
      { numRuns: 100 },
    );
    expect(accepted).toBeGreaterThan(50);
    fc.assert(
      fc.property(valid(schema), mutation, fc.nat(), (value, m, pick) => {
        assertExact(name, schema, check, mutate(value, [m, pick]));
      }),
      { numRuns: 200 },
    );
  });

  it('follow recursion through z.lazy and through getters', () => {
    expect(checks['isTree']?.({ label: 'a', children: [{ label: 'b', children: [] }] })).toBe(true);
    expect(checks['isTree']?.({ label: 'a', children: [{ label: 1 }] })).toBe(false);
    expect(checks['isCat']?.({ name: 'a', kids: [{ name: 'b', kids: [{ name: 'c' }] }] })).toBe(true);
    expect(checks['isCat']?.({ name: 'a', kids: [{ name: 'b', kids: [{}] }] })).toBe(false);
  });

  it('keep exclusive bounds and length checks', () => {
    expect([0, 0.5, 1].map((n) => checks['isOpen']?.(n))).toEqual([false, true, false]);
    expect([[], ['a'], ['a', 'b'], ['a', 'b', 'c']].map((a) => checks['isPair']?.(a))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('answer for overlapping union options only once the value is plain data', () => {
    const b = JSON.parse('{"__proto__": 1}');
    // zod takes { a } with the first option and drops the inner key: not unchanged, so not exact.
    expect(checks['isEither']?.({ a: 'x', b })).toBe(true); // `b` is just an extra key of the first option
    expect(checks['isEither']?.({ a: 1, b })).toBe(false); // the second option would drop b's key
    expect(checks['isEither']?.({ a: 1, b: {} })).toBe(true);
  });

  it.each(Object.keys(unsupported))(
    '%s (a construct the generator does not know) is always false',
    (name) => {
      const check = checks[`is${name}`] as (value: unknown) => boolean;
      for (const value of ['abc', { a: 'x' }, {}]) expect(check(value)).toBe(false);
    },
  );
});
