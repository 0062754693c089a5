import { JsonSchemaCompileError } from './compile-error.js';
import { appendPointer, parsePointer } from './json-pointer.js';
import type { JsonObject } from './json-value.js';
import { hasOwn, isJsonObject } from './json-value.js';
import { forEachSubschema } from './subschemas.js';
import type { JsonSchemaDialect } from './types.js';
import { DEFAULT_BASE_URI, resolveUri, splitFragment } from './uri.js';

/** A schema found in the document, with what is needed to compile it in place. */
export interface IndexedSchema {
  readonly schema: unknown;
  /** The base URI in effect where the schema sits, before its own `$id` applies. */
  readonly parentBase: string;
  readonly schemaPath: string;
}

const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/**
 * The base URI a schema node establishes for itself and its subschemas (2020-12 Core §8.2.1,
 * draft-07 Core §8.2). In draft-07 `$ref` hides every sibling, `$id` included, and an `$id` of
 * the form `#name` is an anchor, not a new base.
 */
export function schemaBase(
  node: JsonObject,
  parentBase: string,
  dialect: JsonSchemaDialect,
  schemaPath: string,
): string {
  const id = node['$id'];
  if (id === undefined) return parentBase;
  if (typeof id !== 'string') throw new JsonSchemaCompileError(schemaPath, '$id must be a string');
  if (dialect === 'draft-07' && (id.startsWith('#') || hasOwn(node, '$ref'))) return parentBase;
  const resolved = resolveUri(id, parentBase);
  if (resolved === undefined)
    throw new JsonSchemaCompileError(schemaPath, `invalid $id ${JSON.stringify(id)}`);
  const { document, fragment } = splitFragment(resolved);
  if (fragment !== '' && dialect === '2020-12') {
    throw new JsonSchemaCompileError(schemaPath, `$id must not contain a non-empty fragment: ${id}`);
  }
  return document;
}

/**
 * Every schema resource (`$id`) and anchor of one document, so refs resolve at compile time.
 * Refs outside the document fail here: validation must never trigger a network fetch.
 */
export class SchemaIndex {
  readonly #dialect: JsonSchemaDialect;
  readonly #resources = new Map<string, IndexedSchema>();
  readonly #anchors = new Map<string, IndexedSchema>();
  readonly rootBase: string;
  /** Every `$defs`/`definitions` entry, compiled eagerly so that their errors surface at compile time. */
  readonly definitions: IndexedSchema[] = [];

  constructor(root: unknown, dialect: JsonSchemaDialect) {
    this.#dialect = dialect;
    this.rootBase = isJsonObject(root) ? schemaBase(root, DEFAULT_BASE_URI, dialect, '#') : DEFAULT_BASE_URI;
    this.#resources.set(this.rootBase, { schema: root, parentBase: DEFAULT_BASE_URI, schemaPath: '#' });
    if (isJsonObject(root)) this.#walk(root, DEFAULT_BASE_URI, '#');
  }

  /** How many schema resources (root plus embedded `$id`s) the document has. */
  get resourceCount(): number {
    return this.#resources.size;
  }

  /** Resolves a `$ref` value against `base`; throws `JsonSchemaCompileError` if it leads nowhere. */
  resolve(reference: string, base: string, schemaPath: string): IndexedSchema {
    const uri = resolveUri(reference, base);
    if (uri === undefined) throw new JsonSchemaCompileError(schemaPath, `invalid URI reference ${reference}`);
    let parts: { document: string; fragment: string };
    try {
      parts = splitFragment(uri);
    } catch (cause) {
      throw new JsonSchemaCompileError(schemaPath, `malformed fragment in ${reference}`, { cause });
    }
    const resource = this.#resources.get(parts.document);
    if (resource === undefined) {
      throw new JsonSchemaCompileError(
        schemaPath,
        `cannot resolve $ref ${JSON.stringify(reference)}: ${parts.document} is not part of this schema document (remote refs are not fetched)`,
      );
    }
    if (parts.fragment === '') return resource;
    if (parts.fragment.startsWith('/'))
      return this.#resolvePointer(resource, parts.fragment, reference, schemaPath);
    const anchor = this.#anchors.get(`${parts.document}#${parts.fragment}`);
    if (anchor === undefined) {
      throw new JsonSchemaCompileError(
        schemaPath,
        `cannot resolve $ref ${JSON.stringify(reference)}: no such anchor`,
      );
    }
    return anchor;
  }

  #resolvePointer(
    resource: IndexedSchema,
    pointer: string,
    reference: string,
    schemaPath: string,
  ): IndexedSchema {
    let node = resource.schema;
    let parentBase = resource.parentBase;
    let path = resource.schemaPath;
    for (const token of parsePointer(pointer)) {
      const base = isJsonObject(node) ? schemaBase(node, parentBase, this.#dialect, path) : parentBase;
      let next: unknown;
      if (Array.isArray(node)) next = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
      else if (isJsonObject(node) && hasOwn(node, token)) next = node[token];
      if (next === undefined) {
        throw new JsonSchemaCompileError(
          schemaPath,
          `cannot resolve $ref ${JSON.stringify(reference)}: nothing at that JSON Pointer`,
        );
      }
      node = next;
      parentBase = base;
      path = appendPointer(path, token);
    }
    return { schema: node, parentBase, schemaPath: path };
  }

  #walk(node: JsonObject, parentBase: string, schemaPath: string): void {
    const base = schemaBase(node, parentBase, this.#dialect, schemaPath);
    const entry: IndexedSchema = { schema: node, parentBase, schemaPath };
    if (base !== parentBase) this.#add(this.#resources, base, entry, `duplicate $id ${base}`);
    for (const name of this.#anchorNames(node, schemaPath)) {
      this.#add(this.#anchors, `${base}#${name}`, entry, `duplicate anchor ${JSON.stringify(name)}`);
    }
    forEachSubschema(node, this.#dialect, (child, tokens) => {
      if (typeof child === 'boolean') return;
      let path = schemaPath;
      for (const token of tokens) path = appendPointer(path, token);
      if (tokens[0] === '$defs' || tokens[0] === 'definitions') {
        this.definitions.push({ schema: child, parentBase: base, schemaPath: path });
      }
      this.#walk(child, base, path);
    });
  }

  #anchorNames(node: JsonObject, schemaPath: string): string[] {
    const names: string[] = [];
    if (this.#dialect === 'draft-07') {
      const id = node['$id'];
      if (typeof id === 'string' && !hasOwn(node, '$ref')) {
        const hash = id.indexOf('#');
        if (hash !== -1 && hash < id.length - 1) names.push(id.slice(hash + 1));
      }
      return names;
    }
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const name = node[keyword];
      if (name === undefined) continue;
      if (typeof name !== 'string' || !ANCHOR.test(name)) {
        throw new JsonSchemaCompileError(
          appendPointer(schemaPath, keyword),
          `invalid ${keyword} ${String(name)}`,
        );
      }
      if (!names.includes(name)) names.push(name);
    }
    return names;
  }

  #add(map: Map<string, IndexedSchema>, key: string, entry: IndexedSchema, message: string): void {
    const existing = map.get(key);
    if (existing !== undefined && existing.schema !== entry.schema) {
      throw new JsonSchemaCompileError(entry.schemaPath, message);
    }
    map.set(key, entry);
  }
}
