import type * as Loaded from './deferred-load.js';
import type { FastCheck } from './lazy-schema.js';
import { deferredSchema } from './lazy-schema.js';

type Module = typeof Loaded;

/**
 * A deferred handle of the schema `deferred-load.ts` exports as `name`: `check` answers for values it
 * accepts, and the module (with zod) is imported only when a value fails it. Typed as that schema.
 * The generated handles (`generated/deferred-handles.ts`) and the hand-written `…Outcome` ones use it.
 *
 * @example
 * ```ts
 * export const DeferredCallToolResultSchema = deferredHandle('CallToolResultSchema', isCallToolResult);
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function deferredHandle<K extends keyof Module>(name: K, check: FastCheck): Module[K] {
  return deferredSchema(() => import('./deferred-load.js').then((module) => module[name]), check);
}
