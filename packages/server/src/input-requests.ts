import type { ClientCapabilities, ZodSchema } from '@x/protocol/core';
import {
  DeferredCreateMessageResultSchema,
  DeferredElicitResultSchema,
  DeferredListRootsResultSchema,
} from '@x/protocol/internal';

/**
 * The three things a server may ask the client for while handling a request — elicitation, sampling
 * and roots — described once for both eras: a server→client request on legacy, an entry of
 * `inputRequests` on 2026-07-28 (spec: basic/patterns/mrtr, "InputRequests").
 */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

export interface InputRequestSpec {
  readonly method: InputMethod;
  readonly params: Record<string, unknown>;
  /** A deferred handle: read it with `fastAccepts`, then `schemaOrLoad` (see `@x/protocol/internal`). */
  readonly resultSchema: ZodSchema;
  /** The client capabilities this request needs, as a `ClientCapabilities` fragment (for -32021). */
  readonly required: ClientCapabilities;
}

/**
 * Per-call options of `ctx.elicit`/`ctx.sample`/`ctx.listRoots`.
 *
 * @example
 * ```ts
 * const answer = await ctx.elicit(
 *   {
 *     mode: 'form',
 *     message: 'Overwrite the file?',
 *     requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
 *   },
 *   { key: 'confirm-overwrite', timeout: 60_000 },
 * );
 * ```
 */
export interface InputOptions {
  /**
   * The `inputRequests` key on 2026-07-28 (unique within the request). Default: derived from the method
   * and the call's position, e.g. `elicitation_0`. Ignored on legacy.
   */
  key?: string | undefined;
  /** Legacy only: timeout of the server→client request in ms. */
  timeout?: number | undefined;
  /**
   * Experimental (2025-11-25): ask the client to run sampling or elicitation as a task (`params.task`)
   * and poll it (`tasks/get`, then `tasks/result`) until it answers. Applies where the client declared
   * `tasks.requests.sampling.createMessage` / `tasks.requests.elicitation.create`; elsewhere the request
   * is sent plainly.
   */
  task?: { ttl?: number | undefined } | undefined;
}

export function elicitationSpec(params: Record<string, unknown>): InputRequestSpec {
  const url = params['mode'] === 'url';
  return {
    method: 'elicitation/create',
    params,
    resultSchema: DeferredElicitResultSchema,
    required: url ? { elicitation: { url: {} } } : { elicitation: {} },
  };
}

export function samplingSpec(params: Record<string, unknown>): InputRequestSpec {
  const tools = params['tools'] !== undefined || params['toolChoice'] !== undefined;
  return {
    method: 'sampling/createMessage',
    params,
    resultSchema: DeferredCreateMessageResultSchema,
    required: tools ? { sampling: { tools: {} } } : { sampling: {} },
  };
}

export function rootsSpec(): InputRequestSpec {
  return {
    method: 'roots/list',
    params: {},
    resultSchema: DeferredListRootsResultSchema,
    required: { roots: {} },
  };
}

/**
 * Whether `capabilities` covers `required` (one or two levels deep, which is all the fragments above
 * use). Elicitation declared as `{}` means form mode (spec 2025-11-25: client/elicitation,
 * "Capabilities": an empty object is equivalent to `{ form: {} }`).
 */
export function hasCapabilities(capabilities: ClientCapabilities, required: ClientCapabilities): boolean {
  for (const [name, sub] of Object.entries(required)) {
    const declared = (capabilities as Record<string, unknown>)[name];
    if (typeof declared !== 'object' || declared === null) return false;
    for (const key of Object.keys(sub as object)) {
      if ((declared as Record<string, unknown>)[key] === undefined) return false;
    }
  }
  return true;
}
