import type { JsonObject } from './json-value.js';
import { isJsonObject } from './json-value.js';
import type { JsonSchemaDialect } from './types.js';

// Where each dialect nests subschemas. Only these locations are walked for `$id` and anchors:
// walking everything would pick up `$id`s inside `const`/`enum` data.
const SINGLE = [
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const MAPS_2020 = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LISTS_2020 = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS_07 = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const LISTS_07 = ['allOf', 'anyOf', 'oneOf'];

export type SubschemaVisitor = (child: JsonObject | boolean, tokens: readonly (string | number)[]) => void;

/** Calls `visit` for every direct subschema of `node` (objects and booleans) with its relative path. */
export function forEachSubschema(
  node: JsonObject,
  dialect: JsonSchemaDialect,
  visit: SubschemaVisitor,
): void {
  const singles = dialect === 'draft-07' ? [...SINGLE, 'additionalItems'] : SINGLE;
  for (const keyword of singles) visitOne(node[keyword], [keyword], visit);
  const items = node['items'];
  if (Array.isArray(items)) for (const [i, child] of items.entries()) visitOne(child, ['items', i], visit);
  else visitOne(items, ['items'], visit);
  for (const keyword of dialect === 'draft-07' ? MAPS_07 : MAPS_2020) {
    const map = node[keyword];
    if (isJsonObject(map)) for (const key of Object.keys(map)) visitOne(map[key], [keyword, key], visit);
  }
  for (const keyword of dialect === 'draft-07' ? LISTS_07 : LISTS_2020) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const [i, child] of list.entries()) visitOne(child, [keyword, i], visit);
  }
}

function visitOne(child: unknown, tokens: readonly (string | number)[], visit: SubschemaVisitor): void {
  if (typeof child === 'boolean' || isJsonObject(child)) visit(child, tokens);
}
