import { itemsSchema, type JsonType, propertySchema, schemaTypes } from './schema-types.js';
import { UsageError } from './usage-error.js';

type JsonObject = Record<string, unknown>;

/** What `call` got on its command line, besides the tool name. */
export interface ArgumentInput {
  /** Positionals: `key=value`, `key:=json` or a whole `'{…}'` JSON object. */
  readonly tokens: readonly string[];
  /** `--args '{…}'`, applied first; the tokens override its keys. */
  readonly json?: string | undefined;
  /** The tool's `inputSchema`, which types `key=value` values. */
  readonly schema?: unknown;
  /** Prompts take only string arguments: `key=value` stays a string whatever it looks like. */
  readonly stringsOnly?: boolean | undefined;
}

/**
 * Builds a tool's (or prompt's) arguments from the command line. `key=value` is typed by the property's
 * schema: numbers, booleans and null are parsed, arrays and objects read as JSON (arrays also as
 * `a,b,c` or by repeating the key); a value the schema does not allow is a usage error. `key:=json`
 * always reads JSON, for properties the schema does not describe.
 *
 * @example
 * ```ts
 * parseArguments({ tokens: ['count=3', 'tags=a,b', 'extra:={"x":1}'], schema });
 * // { count: 3, tags: ['a', 'b'], extra: { x: 1 } }
 * ```
 */
export function parseArguments(input: ArgumentInput): JsonObject {
  const args: JsonObject = input.json === undefined ? {} : parseJsonObject(input.json, '--args');
  const repeated = new Set<string>();
  for (const token of input.tokens) {
    if (token.trimStart().startsWith('{')) {
      Object.assign(args, parseJsonObject(token, 'the JSON argument'));
      continue;
    }
    const eq = token.indexOf('=');
    if (eq <= 0) {
      throw new UsageError(`expected key=value, key:=json or a JSON object, got '${token}'`);
    }
    const raw = token.endsWith(':', eq) && eq > 1;
    const key = token.slice(0, raw ? eq - 1 : eq);
    const text = token.slice(eq + 1);
    if (raw) {
      args[key] = parseJson(text, key);
      continue;
    }
    if (input.stringsOnly === true) {
      args[key] = text;
      continue;
    }
    const property = propertySchema(input.schema, key);
    const root = (input.schema ?? {}) as JsonObject;
    const types = property === undefined ? new Set<JsonType>() : schemaTypes(property, root);
    let value = typedValue(text, key, types);
    if (Array.isArray(value) && types.has('array') && property !== undefined) {
      const items = itemsSchema(property, root);
      // Only `a,b,c` yields untyped strings; a JSON array already says what it holds.
      if (items !== undefined && !isJson(text)) value = value.map((item) => retype(item, key, items, root));
      const previous = args[key];
      // Repeating an array argument (`tag=a tag=b`) appends.
      if (repeated.has(key) && Array.isArray(previous)) value = [...previous, ...(value as unknown[])];
    }
    args[key] = value;
    repeated.add(key);
  }
  return args;
}

/** Types one `key=value` value by the JSON types its property allows. */
export function typedValue(text: string, key: string, types: ReadonlySet<JsonType>): unknown {
  if (types.size === 0) return text;
  const json = tryJson(text);
  // A JSON string keeps its quotes: `name="x"` means the five characters the user typed.
  if (json.ok && typeof json.value !== 'string' && types.has(jsonTypeOf(json.value, types)))
    return json.value;
  if (types.has('string')) return text;
  if (types.has('array')) return text === '' ? [] : text.split(',');
  throw new UsageError(`argument ${key} expects ${describe(types)}, got '${text}'`);
}

/** Array items from `a,b,c` are strings: give them their item type. */
function retype(item: unknown, key: string, items: JsonObject, root: JsonObject): unknown {
  if (typeof item !== 'string') return item;
  const types = schemaTypes(items, root);
  return types.size === 0 ? item : typedValue(item, `${key}[]`, types);
}

/** An integer-valued number satisfies both `integer` and `number`. */
function jsonTypeOf(value: unknown, allowed: ReadonlySet<JsonType>): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    return Number.isInteger(value) && allowed.has('integer') ? 'integer' : 'number';
  }
  return typeof value as JsonType;
}

const TYPE_NAMES: Readonly<Record<JsonType, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean (true/false)',
  null: 'null',
  array: 'a JSON array',
  object: 'a JSON object',
};

function describe(types: ReadonlySet<JsonType>): string {
  const names = [...types].map((t) => TYPE_NAMES[t] ?? t);
  return names.length === 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isJson(text: string): boolean {
  return tryJson(text).ok;
}

function parseJson(text: string, key: string): unknown {
  const json = tryJson(text);
  if (!json.ok) throw new UsageError(`argument ${key}:= expects JSON, got '${text}'`);
  return json.value;
}

function parseJsonObject(text: string, where: string): JsonObject {
  const json = tryJson(text);
  if (!json.ok || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value)) {
    throw new UsageError(`${where} must be a JSON object, got '${text}'`);
  }
  return json.value as JsonObject;
}
