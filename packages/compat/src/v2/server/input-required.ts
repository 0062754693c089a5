import * as z from 'zod/v4';

/** One request a 2.x handler embeds in an `input_required` result (`inputRequests` entry). */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/** The 2.x `input_required` result a handler returns to ask the client for input. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

/** A Standard Schema or zod schema a 2.x `elicit` may carry as `requestedSchema`. */
type RequestedSchema = Record<string, unknown>;

function wireSchema(schema: unknown): RequestedSchema {
  if (typeof schema === 'object' && schema !== null && '_zod' in schema) {
    return z.toJSONSchema(schema as z.ZodType, { target: 'draft-2020-12' }) as RequestedSchema;
  }
  return schema as RequestedSchema;
}

function buildInputRequired(spec: {
  inputRequests?: Record<string, InputRequest> | undefined;
  requestState?: string | undefined;
}): InputRequiredResult {
  const hasRequests = spec.inputRequests !== undefined && Object.keys(spec.inputRequests).length > 0;
  if (!hasRequests && typeof spec.requestState !== 'string') {
    throw new TypeError('inputRequired() needs inputRequests (one entry at least) or requestState');
  }
  return {
    resultType: 'input_required',
    ...(spec.inputRequests === undefined ? {} : { inputRequests: spec.inputRequests }),
    ...(spec.requestState === undefined ? {} : { requestState: spec.requestState }),
  };
}

/**
 * The 2.x `inputRequired` builder: a handler returns it to ask the client for input, then finds the
 * answers in `ctx.mcpReq.inputResponses` when it runs again. On x-mcp the answers are gathered with
 * `ctx.elicit`/`ctx.sample`/`ctx.listRoots` (a server→client request on the `initialize` era, an
 * `input_required` round trip on 2026-07-28) and the handler runs again with them.
 *
 * @example
 * ```ts
 * server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
 *   const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
 *   if (answer.kind !== 'elicit') {
 *     return inputRequired({
 *       inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: z.object({ ok: z.boolean() }) }) },
 *     });
 *   }
 *   return { content: [{ type: 'text', text: answer.action }] };
 * });
 * ```
 */
export const inputRequired = Object.assign(buildInputRequired, {
  elicit(params: { message: string; requestedSchema: unknown } & Record<string, unknown>): InputRequest {
    return {
      method: 'elicitation/create',
      params: { mode: 'form', ...params, requestedSchema: wireSchema(params.requestedSchema) },
    };
  },
  elicitUrl(params: { message: string; url: string } & Record<string, unknown>): InputRequest {
    return { method: 'elicitation/create', params: { mode: 'url', ...params } };
  },
  createMessage(params: Record<string, unknown>): InputRequest {
    return { method: 'sampling/createMessage', params };
  },
  listRoots(): InputRequest {
    return { method: 'roots/list', params: {} };
  },
});

/**
 * Whether a handler's result is an `input_required` result.
 *
 * @example
 * ```ts
 * if (isInputRequiredResult(result)) console.log(Object.keys(result.inputRequests ?? {}));
 * ```
 */
export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  );
}

/** What one `inputResponses` entry holds, told apart by its shape (2.x `inputResponse`). */
export type InputResponseView =
  | { kind: 'missing' }
  | { kind: 'elicit'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  | { kind: 'sampling'; result: Record<string, unknown> }
  | { kind: 'roots'; roots: Array<{ uri: string; name?: string }> };

/**
 * Reads one answer of a retried request (`ctx.mcpReq.inputResponses`).
 *
 * @example
 * ```ts
 * const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
 * if (view.kind === 'elicit' && view.action === 'accept') console.log(view.content);
 * ```
 */
export function inputResponse(
  responses: Record<string, unknown> | undefined,
  key: string,
): InputResponseView {
  const entry = responses?.[key];
  if (typeof entry !== 'object' || entry === null) return { kind: 'missing' };
  const record = entry as Record<string, unknown>;
  const action = record['action'];
  if (action === 'accept' || action === 'decline' || action === 'cancel') {
    const content = record['content'];
    return typeof content === 'object' && content !== null
      ? { kind: 'elicit', action, content: content as Record<string, unknown> }
      : { kind: 'elicit', action };
  }
  if (Array.isArray(record['roots'])) return { kind: 'roots', roots: record['roots'] as [] };
  if ('role' in record && 'content' in record) return { kind: 'sampling', result: record };
  return { kind: 'missing' };
}

/**
 * The accepted content of a form elicitation answer, checked by `schema` when given (2.x
 * `acceptedContent`); `undefined` when missing, declined, cancelled or invalid.
 *
 * @example
 * ```ts
 * const ok = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', z.object({ ok: z.boolean() }));
 * ```
 */
export function acceptedContent<T = Record<string, unknown>>(
  responses: Record<string, unknown> | undefined,
  key: string,
  schema?: { '~standard': { validate(value: unknown): unknown } },
): T | undefined {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit' || view.action !== 'accept' || view.content === undefined) return undefined;
  if (schema === undefined) return view.content as T;
  const result = schema['~standard'].validate(view.content);
  if (result instanceof Promise) throw new TypeError('acceptedContent: the schema validates asynchronously');
  const outcome = result as { value?: unknown; issues?: unknown };
  return outcome.issues === undefined ? (outcome.value as T) : undefined;
}
