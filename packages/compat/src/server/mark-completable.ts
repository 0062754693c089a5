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

/** What `completable` keeps on a schema (1.x `CompletableMeta`). */
export interface CompletableMeta {
  complete: CompleteCallback;
}

/** A schema marked by `completable` (1.x `CompletableSchema`). */
export type CompletableSchema<S extends object = object> = S & { [COMPLETABLE]: CompletableMeta };

/**
 * The schema under a `completable` mark. 1.x marks the schema in place, as this package does, so this
 * is the schema itself (its parsing is untouched by the mark).
 *
 * @example
 * ```ts
 * unwrapCompletable(completable(z.string(), () => [])).parse('x'); // 'x'
 * ```
 */
export function unwrapCompletable<S extends object>(schema: S): S {
  return schema;
}

/** 1.x's kind tag of a completable schema's definition. */
export const McpZodTypeKind = { Completable: 'McpCompletable' } as const;
export type McpZodTypeKind = (typeof McpZodTypeKind)[keyof typeof McpZodTypeKind];

/** 1.x's description of a completable schema: the schema, its completer, its kind. */
export interface CompletableDef<S extends object = object> {
  type: S;
  complete: CompleteCallback;
  typeName: typeof McpZodTypeKind.Completable;
}

export { COMPLETABLE as COMPLETABLE_SYMBOL };
export type { CompleteCallback };
