import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads the spec data vendored in the repository (`tooling/spec`, see its README for source and
 * licence), so a clone with nothing beside it passes its tests.
 */
const repoRoot = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const specRoot = path.join(repoRoot, 'tooling', 'spec');

export type JsonSchema = { [key: string]: unknown };

export function loadDefinitions(version: string): Record<string, JsonSchema> {
  const schema = JSON.parse(readFileSync(path.join(specRoot, version, 'schema.json'), 'utf8')) as {
    definitions?: Record<string, JsonSchema>;
    $defs?: Record<string, JsonSchema>;
  };
  const defs = schema.definitions ?? schema.$defs;
  if (defs === undefined) throw new Error(`no definitions in ${version}/schema.json`);
  return defs;
}

export interface Example {
  type: string;
  file: string;
  value: unknown;
}

export function loadExamples(version: string): Example[] {
  const root = path.join(specRoot, version, 'examples');
  return readdirSync(root).flatMap((type) =>
    readdirSync(path.join(root, type))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        type,
        file,
        value: JSON.parse(readFileSync(path.join(root, type, file), 'utf8')) as unknown,
      })),
  );
}

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A comparable skeleton of a JSON Schema: types, properties, `required`, items, unions, const and
 * enum values, typed `additionalProperties`. Descriptions, formats and numeric bounds are left out
 * (zod writes integer bounds of its own). `$ref`s are resolved against `defs` (`#` is the root);
 * `allOf` is merged.
 */
export function skeleton(schema: unknown, defs: Record<string, unknown>, depth = 0): unknown {
  // Depth counts structural nesting only (not `$ref` hops), so both sides cut recursive
  // definitions such as JSONValue at the same place whether zod inlined them or not.
  if (!isObject(schema) || depth > 9) return {};
  const ref = schema['$ref'];
  if (typeof ref === 'string') return skeleton(resolve(ref, defs), defs, depth);
  if (Array.isArray(schema['allOf'])) return skeleton(mergeAllOf(schema['allOf'], defs), defs, depth);
  if (schema['const'] !== undefined) return { const: schema['const'] };
  if (Array.isArray(schema['enum'])) return { enum: [...(schema['enum'] as unknown[])].map(String).sort() };
  const union = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(union)) return { anyOf: union.map((s) => skeleton(s, defs, depth + 1)) };
  const type = schema['type'];
  if (Array.isArray(type))
    return { anyOf: type.map((t) => skeleton({ ...schema, type: t }, defs, depth + 1)) };
  if (type === 'array') return { type, items: skeleton(schema['items'], defs, depth + 1) };
  if (type === 'object' || isObject(schema['properties'])) {
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const out: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(
        Object.keys(properties)
          .sort()
          .map((key) => [key, skeleton(properties[key], defs, depth + 1)]),
      ),
      required: [...((schema['required'] as string[] | undefined) ?? [])].sort(),
    };
    const extra = schema['additionalProperties'];
    if (isObject(extra) && Object.keys(extra).length > 0)
      out['additionalProperties'] = skeleton(extra, defs, depth + 1);
    return out;
  }
  return typeof type === 'string' ? { type } : {};
}

function resolve(ref: string, defs: Record<string, unknown>): unknown {
  return ref === '#' ? defs['#'] : defs[ref.slice(ref.lastIndexOf('/') + 1)];
}

function mergeAllOf(parts: unknown[], defs: Record<string, unknown>): JsonSchema {
  const properties: JsonSchema = {};
  const required = new Set<string>();
  let additionalProperties: unknown;
  for (const raw of parts) {
    let part = raw as JsonSchema;
    const ref = part['$ref'];
    if (typeof ref === 'string') part = defs[ref.slice(ref.lastIndexOf('/') + 1)] as JsonSchema;
    if (Array.isArray(part['allOf'])) part = mergeAllOf(part['allOf'], defs);
    Object.assign(properties, part['properties'] ?? {});
    for (const key of (part['required'] as string[] | undefined) ?? []) required.add(key);
    if (part['additionalProperties'] !== undefined) additionalProperties = part['additionalProperties'];
  }
  const merged: JsonSchema = { type: 'object', properties, required: [...required] };
  if (additionalProperties !== undefined) merged['additionalProperties'] = additionalProperties;
  return merged;
}

/** Top-level property names and `required` of a (possibly union) skeleton. */
export function topLevel(shape: unknown): { properties: Set<string>; required: Set<string> | undefined } {
  const node = shape as { anyOf?: unknown[]; properties?: JsonSchema; required?: string[] };
  if (Array.isArray(node.anyOf)) {
    const properties = new Set<string>();
    for (const variant of node.anyOf) for (const key of topLevel(variant).properties) properties.add(key);
    return { properties, required: undefined };
  }
  return { properties: new Set(Object.keys(node.properties ?? {})), required: new Set(node.required ?? []) };
}
