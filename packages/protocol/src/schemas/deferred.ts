import type { z } from 'zod';
import { deferredHandle } from './deferred-handle.js';
import { fastAccepts } from './fast-check.js';
import {
  DeferredCallToolResultSchema,
  DeferredCancelTaskResultSchema,
  DeferredCompleteResultSchema,
  DeferredDiscoverResultSchema,
  DeferredGetPromptResultSchema,
  DeferredGetTaskPayloadResultSchema,
  DeferredGetTaskResultSchema,
  DeferredInitializeResultSchema,
  DeferredListPromptsResultSchema,
  DeferredListResourcesResultSchema,
  DeferredListResourceTemplatesResultSchema,
  DeferredListTasksResultSchema,
  DeferredListToolsResultSchema,
  DeferredReadResourceResultSchema,
  DeferredResultSchema,
  DeferredSubscriptionsListenResultSchema,
} from './generated/deferred-handles.js';
import {
  isCallToolResult,
  isCreateTaskHandle,
  isGetPromptResult,
  isInputRequiredResult,
  isReadResourceResult,
} from './generated/checks.js';
import type { FastCheck } from './lazy-schema.js';
import { schemaOrLoad } from './lazy-schema.js';
import type { clientRequestSchemas } from './methods.js';

/**
 * Deferred handles of the schemas a client validates with: each answers with its generated zod-free
 * check (`generated/checks.ts`, exact: true only for values the schema accepts unchanged) and loads
 * `deferred-load.ts` (the zod schemas, and zod) only when a value fails it. So a browser app's first
 * download holds no zod (issue 30: about 100 KiB of a 236 KiB client bundle), and a server that sends
 * only well-formed messages never makes it fetch the rest. Each handle is typed as its schema; the
 * engine (`PendingRequests.settle`, `parseParams`) awaits the load on the rare path.
 *
 * `generated/deferred-handles.ts` (`pnpm gen`) holds one handle per schema `deferred-load.ts` exports
 * that has a generated check; this module adds the `…Outcome` unions, whose checks are written here.
 *
 * Not for code that needs a schema synchronously: a handle throws on any other use until loaded.
 */
export * from './generated/deferred-handles.js';

/** A check for a method that may answer `input_required`: that result, or the method's own. */
function orInputRequiredCheck(check: FastCheck): FastCheck {
  return (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
      ? isInputRequiredResult(value)
      : check(value);
}

/** `tools/call` in 2026-07-28: the result, an `input_required` result, or a task handle (SEP-2663). */
export const DeferredCallToolOutcomeSchema = /* @__PURE__ */ deferredHandle(
  'CallToolOutcomeSchema',
  orInputRequiredCheck((value) => isCallToolResult(value) || isCreateTaskHandle(value)),
);
/** `prompts/get` in 2026-07-28: the result or an `input_required` result. */
export const DeferredGetPromptOutcomeSchema = /* @__PURE__ */ deferredHandle(
  'GetPromptOutcomeSchema',
  orInputRequiredCheck(isGetPromptResult),
);
/** `resources/read` in 2026-07-28: the result or an `input_required` result. */
export const DeferredReadResourceOutcomeSchema = /* @__PURE__ */ deferredHandle(
  'ReadResourceOutcomeSchema',
  orInputRequiredCheck(isReadResourceResult),
);

/**
 * `schema.safeParse(value)` for a deferred handle (or any schema): a value the check accepts costs no
 * load; any other waits for the schema.
 *
 * @example
 * ```ts
 * const parsed = await safeParseDeferred(DeferredDetailedTaskSchema, value);
 * if (!parsed.success) throw new Error(formatIssues(parsed.error));
 * ```
 */
export async function safeParseDeferred<S extends z.ZodType>(
  schema: S,
  value: unknown,
): Promise<z.ZodSafeParseResult<z.output<S>>> {
  if (fastAccepts(schema, value)) return { success: true, data: value as z.output<S> };
  return (await schemaOrLoad(schema)).safeParse(value) as z.ZodSafeParseResult<z.output<S>>;
}

type ClientResultSchemas = {
  readonly [M in keyof typeof clientRequestSchemas]: (typeof clientRequestSchemas)[M]['result'];
};

/**
 * `clientRequestSchemas`' result schemas as deferred handles: what a client validates each answer with.
 *
 * @example
 * ```ts
 * const result = await engine.request({ method: 'tools/list' }, deferredClientResultSchemas['tools/list']);
 * ```
 */
export const deferredClientResultSchemas: ClientResultSchemas = {
  initialize: DeferredInitializeResultSchema,
  ping: DeferredResultSchema,
  'server/discover': DeferredDiscoverResultSchema,
  'resources/list': DeferredListResourcesResultSchema,
  'resources/templates/list': DeferredListResourceTemplatesResultSchema,
  'resources/read': DeferredReadResourceResultSchema,
  'resources/subscribe': DeferredResultSchema,
  'resources/unsubscribe': DeferredResultSchema,
  'subscriptions/listen': DeferredSubscriptionsListenResultSchema,
  'prompts/list': DeferredListPromptsResultSchema,
  'prompts/get': DeferredGetPromptResultSchema,
  'tools/list': DeferredListToolsResultSchema,
  'tools/call': DeferredCallToolResultSchema,
  'logging/setLevel': DeferredResultSchema,
  'completion/complete': DeferredCompleteResultSchema,
  'tasks/get': DeferredGetTaskResultSchema,
  'tasks/result': DeferredGetTaskPayloadResultSchema,
  'tasks/cancel': DeferredCancelTaskResultSchema,
  'tasks/list': DeferredListTasksResultSchema,
};

/**
 * The deferred result schema of a client request `method`: its own for a method of the map, the plain
 * `Result` schema for any other (a custom method a JavaScript caller or a facade sends). A plain lookup
 * gave `undefined` for those, and the request then never settled.
 *
 * @example
 * ```ts
 * engine.request({ method: 'custom/echo', params }, deferredClientResultSchemaOf('custom/echo'));
 * ```
 */
export function deferredClientResultSchemaOf<M extends string>(
  method: M,
): M extends keyof ClientResultSchemas ? ClientResultSchemas[M] : typeof DeferredResultSchema {
  const own = Object.hasOwn(deferredClientResultSchemas, method)
    ? deferredClientResultSchemas[method as keyof ClientResultSchemas]
    : DeferredResultSchema;
  return own as M extends keyof ClientResultSchemas ? ClientResultSchemas[M] : typeof DeferredResultSchema;
}
