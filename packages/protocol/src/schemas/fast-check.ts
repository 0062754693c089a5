import { realSchema } from './lazy-schema.js';

/**
 * Fast checks: cheap predicates that let a hot path skip a zod parse for the everyday shape of a value.
 * A check is a *sufficient* condition: it returns true only for values its schema accepts and returns
 * unchanged (loose objects, no defaults or transforms on the fields it looks at), and false for anything
 * unusual, which then goes through the schema as before. So a check can make validation cheaper, never
 * laxer. On Node, parsing a one-block `CallToolResult` with zod costs more than the rest of an in-memory
 * round trip; the check costs a few property reads.
 */

const checks = new WeakMap<object, (value: unknown) => boolean>();

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
  checks.set(realSchema(schema), check);
  return schema;
}

/**
 * True when `schema` has a fast check and `value` passes it, so `value` may be used as the parsed
 * result; false means "run the schema" (not "invalid").
 *
 * @example
 * ```ts
 * const result = fastAccepts(CallToolResultSchema, raw) ? raw : CallToolResultSchema.parse(raw);
 * ```
 */
export function fastAccepts(schema: object, value: unknown): boolean {
  return fastAcceptsBuilt(realSchema(schema), value);
}

/** {@link fastAccepts} for a schema already resolved with `realSchema` (the engine's pending requests). */
export function fastAcceptsBuilt(schema: object, value: unknown): boolean {
  const check = checks.get(schema);
  return check?.(value) === true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text block with nothing but `type` and `text` among the fields the schema checks. */
function isPlainTextBlock(block: unknown): boolean {
  return (
    isRecord(block) &&
    block['type'] === 'text' &&
    typeof block['text'] === 'string' &&
    block['annotations'] === undefined &&
    block['_meta'] === undefined
  );
}

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** An `Implementation` with string fields only (no `icons`). */
function isPlainImplementation(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['name'] === 'string' &&
    typeof value['version'] === 'string' &&
    isOptionalString(value['title']) &&
    isOptionalString(value['description']) &&
    isOptionalString(value['websiteUrl']) &&
    value['icons'] === undefined
  );
}

/**
 * A result's `_meta`: absent, or an object whose `io.modelcontextprotocol/serverInfo` (the one key the
 * schema checks; every 2026-07-28 result carries it) is absent or a plain `Implementation`.
 */
function isPlainResultMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  const info = meta[SERVER_INFO];
  return info === undefined || isPlainImplementation(info);
}

/**
 * The everyday `CallToolResult`: text blocks only, `isError` absent or boolean, any `structuredContent`
 * (the superset schema takes any JSON value), `_meta` absent or plain (see above), `resultType` absent
 * or `complete`.
 */
export function isPlainCallToolResult(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const content = value['content'];
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) if (!isPlainTextBlock(content[i])) return false;
  const isError = value['isError'];
  const resultType = value['resultType'];
  return (
    (isError === undefined || typeof isError === 'boolean') &&
    isPlainResultMeta(value['_meta']) &&
    (resultType === undefined || resultType === 'complete')
  );
}
