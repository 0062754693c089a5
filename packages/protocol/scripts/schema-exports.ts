/**
 * What the schema barrel (`src/schemas/index.ts`) exports, read once for every generator: its zod
 * schemas (with the tasks extension's, which the root entry exports from `src/tasks/index.ts`) and the
 * public type names. The generators read the hand-written barrel, never their own output, so a schema
 * added to it reaches every generated file in one run of `pnpm gen`.
 */
import { readFileSync } from 'node:fs';
import * as schemas from '../src/schemas/index.js';
import { realSchema } from '../src/schemas/lazy-schema.js';
import * as tasks from '../src/tasks/index.js';
import type { ZodLike } from './zod-defs.js';

/**
 * Types of the barrel that are not part of the root entry's message types: `@x/protocol/internal`
 * exports the method tables' types, and the exact per-revision tables' types are for tests.
 */
export const NON_PUBLIC_TYPES: ReadonlySet<string> = new Set([
  'MethodSchemaEntry',
  'RevisionMethods',
  'RevisionMethodSets',
  'RevisionSchemas',
  'RevisionDefinitionName',
]);

function isZod(value: unknown): value is ZodLike {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The zod `…Schema` exports of a module namespace, by full export name, sorted. */
export function zodExportsOf(module: Record<string, unknown>): Map<string, ZodLike> {
  const out = new Map<string, ZodLike>();
  for (const key of Object.keys(module).sort()) {
    const value = module[key];
    if (key.endsWith('Schema') && isZod(value)) out.set(key, value);
  }
  return out;
}

/** Every zod `…Schema` the root entry exports (the barrel's and the tasks extension's), sorted. */
export function rootSchemas(): Map<string, ZodLike> {
  const all = new Map([
    ...zodExportsOf(schemas as unknown as Record<string, unknown>),
    ...zodExportsOf(tasks as unknown as Record<string, unknown>),
  ]);
  return new Map(
    [...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, realSchema(v)]),
  );
}

/** The zod `…Schema` names of the barrel alone (the root re-exports the tasks extension's itself). */
export function barrelSchemaNames(): string[] {
  return [...zodExportsOf(schemas as unknown as Record<string, unknown>).keys()];
}

/** Names in the `export type { … }` blocks of a module's source. */
export function exportedTypeNames(source: string): string[] {
  const names = new Set<string>();
  for (const block of source.matchAll(/export type \{([^}]*)\}/g))
    for (const part of (block[1] ?? '').split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  return [...names];
}

/** The barrel's public message types (what `@x/protocol/core` exports), sorted. */
export function messageTypeNames(): string[] {
  const source = readFileSync(new URL('../src/schemas/index.ts', import.meta.url), 'utf8');
  return exportedTypeNames(source)
    .filter((name) => !NON_PUBLIC_TYPES.has(name))
    .sort();
}
