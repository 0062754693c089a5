import { fastCheckOf, fastChecks, realSchema } from './lazy-schema.js';

/**
 * Fast checks: cheap predicates that let a hot path skip a zod parse for the everyday shape of a value.
 * A check is a *sufficient* condition: it returns true only for values its schema accepts and returns
 * unchanged (loose objects, no defaults or transforms on the fields it looks at), and false for anything
 * unusual, which then goes through the schema as before. So a check can make validation cheaper, never
 * laxer. On Node, parsing a one-block `CallToolResult` with zod costs more than the rest of an in-memory
 * round trip; the check costs a few property reads.
 */

/**
 * Attaches `check` to `schema` (see the module comment for the contract it must keep; a test should
 * hold it against the schema). Returns the schema.
 *
 * @example
 * ```ts
 * const Echo = registerFastCheck(z.looseObject({ text: z.string() }), (v) =>
 *   typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string',
 * );
 * fastAccepts(Echo, { text: 'hi' }); // true: callers may use the value as is
 * ```
 */
export function registerFastCheck<S extends object>(schema: S, check: (value: unknown) => boolean): S {
  fastChecks.set(realSchema(schema), check);
  // For a lazy facade, the facade answers with the same check (it may have had one of its own).
  fastChecks.set(schema, check);
  return schema;
}

/**
 * True when `schema` has a fast check and `value` passes it, so `value` may be used as the parsed
 * result; false means "run the schema" (not "invalid"). Builds no schema: a lazily built schema of
 * `@x/protocol` (every exported `…Schema` has an exact generated check, see `generated/checks.ts`) is
 * never built while every value passes its check.
 *
 * @example
 * ```ts
 * const result = fastAccepts(CallToolResultSchema, raw) ? raw : CallToolResultSchema.parse(raw);
 * ```
 */
export function fastAccepts(schema: object, value: unknown): boolean {
  const check = fastCheckOf(schema);
  return check !== undefined && check(value) === true;
}
