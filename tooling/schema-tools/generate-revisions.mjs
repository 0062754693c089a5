#!/usr/bin/env node
/**
 * Generates the exact per-revision zod schemas of @x/protocol from the official JSON Schemas in
 * `tooling/spec/<version>/schema.json`, vendored from the spec repository (DESIGN §3: generated output
 * is checked in and readable).
 *
 * Each revision file holds only that revision's deltas against the previous one:
 *   - definitions that are new or whose JSON Schema changed, and
 *   - definitions that are textually unchanged but reference (transitively) a changed one, which
 *     zod has to rebuild because it has no late-bound `$ref`.
 * Everything else is imported from the previous revision, so `2025-03-26.ts` reads as
 * "2024-11-05 plus AudioContent, Annotations, …".
 *
 * Usage: `pnpm gen` (this, then `biome check --write` on the output, then the other generators).
 * `--out=<dir>` writes elsewhere (the staleness test compares that output with the checked-in files).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const specRoot = path.join(repoRoot, 'tooling', 'spec');
const outArg = process.argv.find((arg) => arg.startsWith('--out='));
const outDir = outArg
  ? path.resolve(outArg.slice('--out='.length))
  : path.join(repoRoot, 'packages', 'protocol', 'src', 'schemas', 'revisions');

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

function loadDefs(version) {
  const schema = JSON.parse(readFileSync(path.join(specRoot, version, 'schema.json'), 'utf8'));
  return schema.definitions ?? schema.$defs;
}

const refName = (ref) => ref.slice(ref.lastIndexOf('/') + 1);

/** The definition with descriptions dropped and `$ref`s reduced to names: what "changed" compares. */
function normalize(schema) {
  if (Array.isArray(schema)) return schema.map(normalize);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const key of Object.keys(schema).sort()) {
    if (key === 'description') continue;
    out[key] = key === '$ref' ? refName(schema[key]) : normalize(schema[key]);
  }
  return out;
}

function refsOf(schema, acc = new Set()) {
  if (Array.isArray(schema)) {
    for (const item of schema) refsOf(item, acc);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref') acc.add(refName(value));
      else refsOf(value, acc);
    }
  }
  return acc;
}

/** Definition names that would shadow a global get a suffix as identifiers (the record keeps the name). */
const SHADOWING = new Set(['Error']);
const idOf = (name) => (SHADOWING.has(name) ? `${name}Definition` : name);

const isIdentifier = (key) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
const keyOf = (key) => (isIdentifier(key) ? key : JSON.stringify(key));

/** A one-line summary of a definition's description for its JSDoc. */
function summary(description) {
  if (typeof description !== 'string') return undefined;
  const first = description
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = first.match(/^.*?[.!?](\s|$)/)?.[0]?.trim() ?? first;
  return sentence.replace(/\*\//g, '*\\/').replace(/\{@link (\S+?)(?:\s[^}]*)?\}/g, '`$1`');
}

class Emitter {
  /** @param {Record<string, any>} defs @param {Set<string>} emitted names usable without z.lazy */
  constructor(defs, emitted) {
    this.defs = defs;
    this.emitted = emitted;
  }

  ref(name) {
    return this.emitted.has(name) ? idOf(name) : `z.lazy(() => ${idOf(name)})`;
  }

  /** Resolves `$ref`s and flattens `allOf` into one object schema (used by the error definitions). */
  flattenAllOf(parts) {
    const properties = {};
    const required = new Set();
    let additional;
    for (const raw of parts) {
      const part = raw.$ref ? this.defs[refName(raw.$ref)] : raw;
      const flat = part.allOf ? this.flattenAllOf(part.allOf) : part;
      Object.assign(properties, flat.properties ?? {});
      for (const key of flat.required ?? []) required.add(key);
      if (flat.additionalProperties !== undefined) additional = flat.additionalProperties;
    }
    const out = { type: 'object', properties, required: [...required] };
    if (additional !== undefined) out.additionalProperties = additional;
    return out;
  }

  schema(s) {
    if (s.$ref) return this.ref(refName(s.$ref));
    if (s.const !== undefined) return `z.literal(${JSON.stringify(s.const)})`;
    if (s.enum) return `z.enum(${JSON.stringify(s.enum)})`;
    if (s.anyOf) return `z.union([${s.anyOf.map((x) => this.schema(x)).join(', ')}])`;
    if (s.allOf) return this.schema(this.flattenAllOf(s.allOf));
    if (Array.isArray(s.type)) {
      return `z.union([${s.type.map((type) => this.schema({ ...s, type })).join(', ')}])`;
    }
    switch (s.type) {
      case 'string':
        // `format` (uri, byte, uri-template, date-time) is documentation here, as in the spec's own
        // TypeScript: peers send relative and custom-scheme URIs that strict URL parsing would reject.
        return `z.string()${s.minLength !== undefined ? `.min(${s.minLength})` : ''}${
          s.maxLength !== undefined ? `.max(${s.maxLength})` : ''
        }`;
      case 'integer':
      case 'number': {
        let out = s.type === 'integer' ? 'z.number().int()' : 'z.number()';
        if (s.minimum !== undefined) out += `.min(${s.minimum})`;
        if (s.maximum !== undefined) out += `.max(${s.maximum})`;
        return out;
      }
      case 'boolean':
        return 'z.boolean()';
      case 'null':
        return 'z.null()';
      case 'array': {
        let out = `z.array(${s.items ? this.schema(s.items) : 'z.unknown()'})`;
        if (s.minItems !== undefined) out += `.min(${s.minItems})`;
        if (s.maxItems !== undefined) out += `.max(${s.maxItems})`;
        return out;
      }
      case 'object':
        return this.object(s);
      case undefined:
        if (s.properties) return this.object(s);
        return 'z.unknown()';
      default:
        throw new Error(`unsupported type ${s.type}`);
    }
  }

  object(s) {
    const required = new Set(s.required ?? []);
    const entries = Object.entries(s.properties ?? {}).map(([key, value]) => {
      const inner = this.schema(value);
      return `${keyOf(key)}: ${required.has(key) ? inner : `${inner}.optional()`}`;
    });
    const ap = s.additionalProperties;
    const typedExtras =
      ap !== undefined && ap !== true && typeof ap === 'object' && Object.keys(ap).length > 0;
    if (typedExtras && entries.length === 0) return `z.record(z.string(), ${this.schema(ap)})`;
    // JSON Schema objects without `additionalProperties: false` accept extra keys; so do we, and we
    // keep them (forward compatibility: nothing is silently stripped).
    if (typedExtras) return `z.object({ ${entries.join(', ')} }).catchall(${this.schema(ap)})`;
    return `z.looseObject({ ${entries.join(', ')} })`;
  }
}

/** Definitions in dependency order; back-edges of cycles become `z.lazy`. */
function order(names, defs) {
  const out = [];
  const state = new Map();
  const visit = (name) => {
    if (state.get(name) === 'done' || state.get(name) === 'active') return;
    state.set(name, 'active');
    for (const dep of [...refsOf(defs[name])].sort()) if (names.has(dep)) visit(dep);
    state.set(name, 'done');
    out.push(name);
  };
  for (const name of [...names].sort()) visit(name);
  return out;
}

const ident = (version) => `rev${version.replaceAll('-', '')}`;

function generate(version, previous) {
  const defs = loadDefs(version);
  const names = Object.keys(defs).sort();
  const prevDefs = previous ? loadDefs(previous) : {};

  const status = new Map();
  for (const name of names) {
    if (!(name in prevDefs)) status.set(name, 'added');
    else if (JSON.stringify(normalize(defs[name])) !== JSON.stringify(normalize(prevDefs[name]))) {
      status.set(name, 'changed');
    }
  }
  // zod has no late-bound refs: a definition referencing a rebuilt one is rebuilt too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of names) {
      if (status.has(name)) continue;
      const via = [...refsOf(defs[name])].find((dep) => status.has(dep));
      if (via) {
        status.set(name, `rebuilt, references ${via}`);
        grew = true;
      }
    }
  }
  const local = new Set(names.filter((name) => status.has(name)));
  const inherited = names.filter((name) => !local.has(name));
  const removed = Object.keys(prevDefs).filter((name) => !(name in defs));

  const emitted = new Set(inherited);
  const lines = [];
  for (const name of order(local, defs)) {
    const emitter = new Emitter(defs, emitted);
    const body = emitter.schema(defs[name]);
    const doc = summary(defs[name].description);
    const tag = previous ? `(${version}: ${status.get(name)}.)` : undefined;
    const comment = [doc, tag].filter(Boolean).join(' ');
    if (comment) lines.push(`  /** ${comment} */`);
    lines.push(`  const ${idOf(name)}: z.ZodType = ${body};`);
    emitted.add(name);
  }

  // Each revision is built on first use, not at import: zod schemas cost memory and start-up time,
  // and most programs never read `revisionSchemas` (the everyday superset schemas do not need them).
  const build = `build${ident(version).slice(3)}`;
  const typeName = `Rev${ident(version).slice(3)}`;
  const header = [
    `// GENERATED by tooling/schema-tools/generate-revisions.mjs from tooling/spec/${version}/schema.json.`,
    '// Do not edit by hand: change the generator or the hand-written superset schemas instead.',
    previous
      ? `// ${version} = ${previous} + the deltas below (${local.size} new/changed/rebuilt, ${inherited.length} inherited` +
        (removed.length ? `; removed: ${removed.join(', ')}` : '') +
        ').'
      : `// ${version} is the base revision: every definition is spelled out here.`,
    "import * as z from 'zod';",
  ];
  if (previous) header.push(`import { build${ident(previous).slice(3)} } from './${previous}.js';`);
  const body = [
    '',
    `/** Definition names of the ${version} JSON Schema. */`,
    `export type ${typeName}Name =`,
    ...names.map((name, i) => `  | '${name}'${i === names.length - 1 ? ';' : ''}`),
    '',
    `/** Every definition of the ${version} JSON Schema, keyed by its name there. */`,
    `export type ${typeName} = Readonly<Record<${typeName}Name, z.ZodType>>;`,
    '',
    `let built: ${typeName} | undefined;`,
    '',
    `/** Builds every definition of the ${version} JSON Schema once, on first call, and returns them by name. */`,
    `export function ${build}(): ${typeName} {`,
    '  if (built !== undefined) return built;',
  ];
  if (previous && inherited.length > 0) {
    body.push(
      `  const { ${inherited.map((name) => (idOf(name) === name ? name : `${name}: ${idOf(name)}`)).join(', ')} } = build${ident(previous).slice(3)}();`,
    );
  }
  body.push('', ...lines, '', '  built = {');
  body.push(...names.map((name) => (idOf(name) === name ? `    ${name},` : `    ${name}: ${idOf(name)},`)));
  body.push('  };', '  return built;', '}', '');
  return `${header.join('\n')}\n${body.join('\n')}`;
}

REVISIONS.forEach((version, index) => {
  const file = path.join(outDir, `${version}.ts`);
  writeFileSync(file, generate(version, REVISIONS[index - 1]));
  console.log(`wrote ${path.relative(repoRoot, file)}`);
});
