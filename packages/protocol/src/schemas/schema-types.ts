import type { z } from 'zod';

/**
 * Spelled-out zod types for annotating schemas built from other schemas. Without an annotation, tsc's
 * declaration emit expands every member schema's full type inline, so a composite repeats its members'
 * types (one request schema's `.d.ts` ran to 20 KB). An annotation that names members with
 * `typeof OtherSchema` is emitted as written. Each alias is exactly what the zod call returns, so the
 * schema's `z.infer`/`z.input`/`z.output` do not change (`test/schema-types.test.ts` holds a few).
 */

/** `z.looseObject(shape)`. */
export type LooseObject<Shape extends z.core.$ZodLooseShape> = z.ZodObject<Shape, z.core.$loose>;

/** `Base.extend(shape)`: `Base`'s shape with `Shape`'s keys added or replaced, `Base`'s unknown-key mode. */
export type Extended<Base extends z.ZodObject, Shape extends z.core.$ZodLooseShape> = z.ZodObject<
  z.core.util.Extend<Base['shape'], Shape>,
  Base['_zod']['config']
>;
