/** The JSON types a JSON Schema allows, as far as a command line can tell. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

type Schema = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) within `root`; other refs stay unresolved. */
function deref(schema: Schema, root: Schema): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = isRecord(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return isRecord(node) ? node : schema;
}

/**
 * The JSON types `schema` accepts: from `type`, `const`/`enum` values, and the branches of
 * `anyOf`/`oneOf`. Empty when the schema says nothing (then a value stays a string).
 *
 * @example
 * ```ts
 * schemaTypes({ type: ['integer', 'null'] }, root); // Set { 'integer', 'null' }
 * ```
 */
export function schemaTypes(schema: unknown, root: Schema, depth = 0): Set<JsonType> {
  const types = new Set<JsonType>();
  if (!isRecord(schema) || depth > 8) return types;
  const node = deref(schema, root);
  const type = node['type'];
  for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') types.add(t as JsonType);
  if ('const' in node) types.add(typeOfValue(node['const']));
  const values = node['enum'];
  if (Array.isArray(values)) for (const v of values) types.add(typeOfValue(v));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) for (const t of schemaTypes(branch, root, depth + 1)) types.add(t);
  }
  return types;
}

/** The schema of property `name` of an object schema (following a top-level `$ref`), if declared. */
export function propertySchema(schema: unknown, name: string): Schema | undefined {
  if (!isRecord(schema)) return undefined;
  const properties = deref(schema, schema)['properties'];
  if (!isRecord(properties) || !Object.hasOwn(properties, name)) return undefined;
  const property = properties[name];
  return isRecord(property) ? deref(property, schema) : undefined;
}

/** The `items` schema of an array schema, if it has one. */
export function itemsSchema(schema: Schema, root: Schema): Schema | undefined {
  const items = deref(schema, root)['items'];
  return isRecord(items) ? deref(items, root) : undefined;
}
