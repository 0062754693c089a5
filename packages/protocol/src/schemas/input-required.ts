import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isInputRequest,
  isInputRequests,
  isInputRequiredResult,
  isInputResponse,
  isInputResponseRequestParams,
  isInputResponses,
} from './generated/checks.js';
import { ResultSchema } from './common.js';
import { ElicitRequestSchema, ElicitResultSchema } from './elicitation.js';
import { RequestParamsSchema } from './request-params.js';
import { ListRootsRequestSchema, ListRootsResultSchema } from './roots.js';
import { CreateMessageRequestSchema, CreateMessageResultSchema } from './sampling.js';
import type { Extended } from './schema-types.js';

/**
 * Multi round-trip requests (2026-07-28, `basic/patterns/mrtr`): instead of sending its own
 * requests, a server answers `resultType: "input_required"` with `inputRequests`; the client
 * retries the original request with `inputResponses` (same keys) and the opaque `requestState`.
 */

/** A request the server needs the client to answer: sampling, roots or elicitation. */
export const InputRequestSchema: z.ZodUnion<
  readonly [typeof CreateMessageRequestSchema, typeof ListRootsRequestSchema, typeof ElicitRequestSchema]
> = lazySchema(
  () =>
    z.union([
      realSchema(CreateMessageRequestSchema),
      realSchema(ListRootsRequestSchema),
      realSchema(ElicitRequestSchema),
    ]),
  isInputRequest,
);
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** Input requests keyed by a server-chosen id. */
export const InputRequestsSchema: z.ZodRecord<z.ZodString, typeof InputRequestSchema> = lazySchema(
  () => z.record(z.string(), realSchema(InputRequestSchema)),
  isInputRequests,
);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/**
 * The client's answer to one input request. Sampling first: its required `model`/`role` keep an
 * elicitation or roots answer from matching it by accident.
 */
export const InputResponseSchema: z.ZodUnion<
  readonly [typeof CreateMessageResultSchema, typeof ListRootsResultSchema, typeof ElicitResultSchema]
> = lazySchema(
  () =>
    z.union([
      realSchema(CreateMessageResultSchema),
      realSchema(ListRootsResultSchema),
      realSchema(ElicitResultSchema),
    ]),
  isInputResponse,
);
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Answers keyed like the `inputRequests` they answer. */
export const InputResponsesSchema: z.ZodRecord<z.ZodString, typeof InputResponseSchema> = lazySchema(
  () => z.record(z.string(), realSchema(InputResponseSchema)),
  isInputResponses,
);
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * `resultType: "input_required"`: at least one of `inputRequests` or `requestState` is present.
 *
 * @example
 * ```ts
 * const result = InputRequiredResultSchema.parse({
 *   resultType: 'input_required',
 *   inputRequests: {
 *     confirm: {
 *       method: 'elicitation/create',
 *       params: { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } },
 *     },
 *   },
 *   requestState: 'v1.abc.def',
 * });
 * for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
 *   console.log(key, request.method); // confirm elicitation/create
 * }
 * ```
 */
export const InputRequiredResultSchema: Extended<
  typeof ResultSchema,
  { inputRequests: z.ZodOptional<typeof InputRequestsSchema>; requestState: z.ZodOptional<z.ZodString> }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      inputRequests: realSchema(InputRequestsSchema).optional(),
      requestState: z.string().optional(),
    }),
  isInputRequiredResult,
);
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/** Params fields of a request retried with answers (`tools/call`, `prompts/get`, `resources/read`). */
export const InputResponseRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { inputResponses: z.ZodOptional<typeof InputResponsesSchema>; requestState: z.ZodOptional<z.ZodString> }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      inputResponses: realSchema(InputResponsesSchema).optional(),
      requestState: z.string().optional(),
    }),
  isInputResponseRequestParams,
);
export type InputResponseRequestParams = z.infer<typeof InputResponseRequestParamsSchema>;

/**
 * The result schema of a method that may answer `input_required` (`tools/call`, `prompts/get`,
 * `resources/read`): a result whose `resultType` is `input_required` is checked against
 * `InputRequiredResultSchema` and returned as received; any other against `schema`, the method's own.
 * Not a union: every field of `InputRequiredResult` is optional, so "either schema" accepted any object
 * at all (`{ content: 'not-an-array' }` included). Failures carry the issues of the one schema chosen.
 *
 * @example
 * ```ts
 * const CallResult = orInputRequired(CallToolResultSchema);
 * CallResult.safeParse({ content: 'not-an-array' }).success; // false
 * CallResult.safeParse({ resultType: 'input_required', requestState: 's' }).success; // true
 * ```
 */
export function orInputRequired(schema: z.ZodType): z.ZodType {
  const complete = realSchema(schema);
  const inputRequired = realSchema(InputRequiredResultSchema);
  return z.unknown().transform((value, ctx) => {
    const asksInput =
      typeof value === 'object' &&
      value !== null &&
      (value as { resultType?: unknown }).resultType === 'input_required';
    const parsed = (asksInput ? inputRequired : complete).safeParse(value);
    // An input_required result is kept as received once valid (its schema changes nothing): zod's copy
    // of a record drops an own `__proto__` key, and the keys of `inputRequests` are the server's.
    if (parsed.success) return asksInput ? value : parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: value } as never);
    return z.NEVER;
  });
}
