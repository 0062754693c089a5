import type { CompleteCallback } from '@x/server';

/** Where `completable()` keeps a schema's completer (the official SDK uses a symbol the same way). */
export const COMPLETABLE: unique symbol = Symbol.for('@x/compat completable');

/** A zod (3 or 4) schema, or any Standard Schema. */
function isSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return '~standard' in value || '_def' in value || '_zod' in value;
}

/**
 * Whether `value` is a v1 raw shape (`{ a: z.string() }`): an object every value of which is a schema.
 * The empty object counts, as in 1.x (`server.tool('ping', {}, cb)`). Tool annotations are not one.
 *
 * @example
 * ```ts
 * isRawShape({ city: z.string() }); // true
 * isRawShape({ readOnlyHint: true }); // false
 * ```
 */
export function isRawShape(value: unknown): value is Record<string, object> {
  if (typeof value !== 'object' || value === null || isSchema(value)) return false;
  return Object.values(value).every(isSchema);
}

/**
 * The completers of a prompt's raw argument shape, by argument name (see `completable`).
 *
 * @example
 * ```ts
 * completersOf({ lang: completable(z.string(), (v) => ['en', 'fr'].filter((l) => l.startsWith(v))) });
 * ```
 */
export function completersOf(shape: unknown): Record<string, CompleteCallback> | undefined {
  if (typeof shape !== 'object' || shape === null) return undefined;
  const found: Record<string, CompleteCallback> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const completer = (schema as { [COMPLETABLE]?: { complete: CompleteCallback } } | undefined)?.[
      COMPLETABLE
    ];
    if (completer !== undefined) found[name] = completer.complete;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}
