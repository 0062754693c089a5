import type { CompleteCallback } from '@x/server';
import { COMPLETABLE } from './schema-shapes.js';

/**
 * Marks a prompt argument's schema as completable: `completion/complete` for that argument calls
 * `complete(value, context)`. Returns the same schema, marked (as 1.x does).
 *
 * @example
 * ```ts
 * server.registerPrompt('review', {
 *   argsSchema: { language: completable(z.string(), (value) => ['go', 'rust'].filter((l) => l.startsWith(value))) },
 * }, ({ language }) => ({ messages: [{ role: 'user', content: { type: 'text', text: language } }] }));
 * ```
 */
export function completable<S extends object>(schema: S, complete: CompleteCallback): S {
  Object.defineProperty(schema, COMPLETABLE, { value: { complete }, enumerable: false, configurable: true });
  return schema;
}

/**
 * Whether `schema` was marked by `completable`.
 *
 * @example
 * ```ts
 * isCompletable(completable(z.string(), () => [])); // true
 * ```
 */
export function isCompletable(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && COMPLETABLE in schema;
}

/** The completer of a schema marked by `completable`. */
export function getCompleter(schema: unknown): CompleteCallback | undefined {
  return isCompletable(schema)
    ? (schema as { [COMPLETABLE]: { complete: CompleteCallback } })[COMPLETABLE].complete
    : undefined;
}

export { COMPLETABLE as COMPLETABLE_SYMBOL };
export type { CompleteCallback };
