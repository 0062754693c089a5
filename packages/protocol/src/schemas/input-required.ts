import { z } from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
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
> = lazySchema(() =>
  z.union([
    realSchema(CreateMessageRequestSchema),
    realSchema(ListRootsRequestSchema),
    realSchema(ElicitRequestSchema),
  ]),
);
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** Input requests keyed by a server-chosen id. */
export const InputRequestsSchema: z.ZodRecord<z.ZodString, typeof InputRequestSchema> = lazySchema(() =>
  z.record(z.string(), realSchema(InputRequestSchema)),
);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/**
 * The client's answer to one input request. Sampling first: its required `model`/`role` keep an
 * elicitation or roots answer from matching it by accident.
 */
export const InputResponseSchema: z.ZodUnion<
  readonly [typeof CreateMessageResultSchema, typeof ListRootsResultSchema, typeof ElicitResultSchema]
> = lazySchema(() =>
  z.union([
    realSchema(CreateMessageResultSchema),
    realSchema(ListRootsResultSchema),
    realSchema(ElicitResultSchema),
  ]),
);
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Answers keyed like the `inputRequests` they answer. */
export const InputResponsesSchema: z.ZodRecord<z.ZodString, typeof InputResponseSchema> = lazySchema(() =>
  z.record(z.string(), realSchema(InputResponseSchema)),
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
> = lazySchema(() =>
  realSchema(ResultSchema).extend({
    inputRequests: realSchema(InputRequestsSchema).optional(),
    requestState: z.string().optional(),
  }),
);
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;

/** Params fields of a request retried with answers (`tools/call`, `prompts/get`, `resources/read`). */
export const InputResponseRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { inputResponses: z.ZodOptional<typeof InputResponsesSchema>; requestState: z.ZodOptional<z.ZodString> }
> = lazySchema(() =>
  realSchema(RequestParamsSchema).extend({
    inputResponses: realSchema(InputResponsesSchema).optional(),
    requestState: z.string().optional(),
  }),
);
export type InputResponseRequestParams = z.infer<typeof InputResponseRequestParamsSchema>;
