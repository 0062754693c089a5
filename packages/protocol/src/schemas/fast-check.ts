import { fastCheckOf, fastChecks, realSchema } from './lazy-schema.js';
import { CACHE_SCOPES } from './meta-keys.js';

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
 * `@x/protocol` with a fast check (`CallToolResultSchema`, `InitializeRequestParamsSchema`,
 * `InitializeResultSchema`, `DiscoverResultSchema`) is never built while every value passes it.
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

/**
 * An object as zod's object and record schemas take it, and return it with the same keys: zod leaves out
 * an own `__proto__` key (which `JSON.parse` makes from `"__proto__"` on the wire), so such an object
 * goes to the schema.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__')
  );
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

function isOptionalRecord(value: unknown): boolean {
  return value === undefined || isRecord(value);
}

function isOptionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === 'boolean';
}

/** `experimental`: an object whose every own key is a string naming an object. */
function isOptionalRecordOfRecords(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isRecord(value)) return false;
  const keys = Reflect.ownKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string' || !isRecord(value[key])) return false;
  }
  return true;
}

/** Absent, or an object whose `first` (and `second`) field passes `test`: `{ listChanged?: boolean }`, … */
function isOptionalRecordWhere(
  value: unknown,
  test: (field: unknown) => boolean,
  first: string,
  second?: string,
): boolean {
  if (value === undefined) return true;
  return isRecord(value) && test(value[first]) && (second === undefined || test(value[second]));
}

/**
 * Client capabilities of the everyday kinds: `experimental`, `roots`, `sampling`, `elicitation` (and
 * any key the schema does not name, which it passes through); `tasks` and `extensions` go to the schema.
 */
function isPlainClientCapabilities(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (
    isOptionalRecordOfRecords(value['experimental']) &&
    isOptionalRecordWhere(value['roots'], isOptionalBoolean, 'listChanged') &&
    isOptionalRecordWhere(value['sampling'], isOptionalRecord, 'context', 'tools') &&
    isOptionalRecordWhere(value['elicitation'], isOptionalRecord, 'form', 'url') &&
    value['tasks'] === undefined &&
    value['extensions'] === undefined
  );
}

/**
 * Server capabilities of the everyday kinds: `experimental`, `logging`, `completions`, `prompts`,
 * `resources`, `tools` (and keys the schema does not name); `tasks` and `extensions` go to the schema.
 */
function isPlainServerCapabilities(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (
    isOptionalRecordOfRecords(value['experimental']) &&
    isOptionalRecord(value['logging']) &&
    isOptionalRecord(value['completions']) &&
    isOptionalRecordWhere(value['prompts'], isOptionalBoolean, 'listChanged') &&
    isOptionalRecordWhere(value['tools'], isOptionalBoolean, 'listChanged') &&
    isOptionalRecordWhere(value['resources'], isOptionalBoolean, 'subscribe', 'listChanged') &&
    value['tasks'] === undefined &&
    value['extensions'] === undefined
  );
}

/**
 * The everyday `initialize` params: a version string, plain client capabilities (see above), a plain
 * `clientInfo`, no `_meta`. Answering a handshake then builds none of the capability schemas (~5 ms of
 * a stdio server's cold start).
 */
export function isPlainInitializeRequestParams(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['protocolVersion'] === 'string' &&
    isPlainClientCapabilities(value['capabilities']) &&
    isPlainImplementation(value['clientInfo']) &&
    value['_meta'] === undefined
  );
}

/**
 * The everyday `initialize` result: a version string, plain server capabilities, a plain `serverInfo`,
 * `instructions` absent or a string, `_meta` absent or plain, `resultType` absent or a string.
 */
export function isPlainInitializeResult(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const resultType = value['resultType'];
  return (
    typeof value['protocolVersion'] === 'string' &&
    isPlainServerCapabilities(value['capabilities']) &&
    isPlainImplementation(value['serverInfo']) &&
    isOptionalString(value['instructions']) &&
    isPlainResultMeta(value['_meta']) &&
    (resultType === undefined || typeof resultType === 'string')
  );
}

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * The everyday `server/discover` result (2026-07-28): version strings, plain server capabilities,
 * `instructions` absent or a string, `ttlMs` absent or a non-negative safe integer, `cacheScope` absent
 * or a defined scope, `_meta` absent or plain, `resultType` absent or a string.
 */
export function isPlainDiscoverResult(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const ttlMs = value['ttlMs'];
  const cacheScope = value['cacheScope'];
  const resultType = value['resultType'];
  return (
    isStringArray(value['supportedVersions']) &&
    isPlainServerCapabilities(value['capabilities']) &&
    isOptionalString(value['instructions']) &&
    (ttlMs === undefined || (Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0)) &&
    (cacheScope === undefined || (CACHE_SCOPES as readonly unknown[]).includes(cacheScope)) &&
    isPlainResultMeta(value['_meta']) &&
    (resultType === undefined || typeof resultType === 'string')
  );
}
