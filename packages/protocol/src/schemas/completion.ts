import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isCompleteRequest,
  isCompleteRequestParams,
  isCompleteResult,
  isPromptReference,
  isResourceTemplateReference,
} from './generated/checks.js';
import { ResultSchema } from './common.js';
import { RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/** Completion for a prompt's argument. */
export const PromptReferenceSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('ref/prompt'),
      name: z.string(),
      title: z.string().optional(),
    }),
  isPromptReference,
);
export type PromptReference = z.infer<typeof PromptReferenceSchema>;

/** Completion for a resource template's variable (`ResourceReference` in 2024-11-05 and 2025-03-26). */
export const ResourceTemplateReferenceSchema = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('ref/resource'),
      uri: z.string(),
    }),
  isResourceTemplateReference,
);
export type ResourceTemplateReference = z.infer<typeof ResourceTemplateReferenceSchema>;

/** Params of `completion/complete`; `context` is 2025-06-18+. */
export const CompleteRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    ref: z.ZodDiscriminatedUnion<
      [typeof PromptReferenceSchema, typeof ResourceTemplateReferenceSchema],
      'type'
    >;
    argument: LooseObject<{ name: z.ZodString; value: z.ZodString }>;
    context: z.ZodOptional<LooseObject<{ arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>> }>>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      ref: z.discriminatedUnion('type', [
        realSchema(PromptReferenceSchema),
        realSchema(ResourceTemplateReferenceSchema),
      ]),
      argument: z.looseObject({ name: z.string(), value: z.string() }),
      context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
    }),
  isCompleteRequestParams,
);
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** `completion/complete`. */
export const CompleteRequestSchema: LooseObject<{
  method: z.ZodLiteral<'completion/complete'>;
  params: typeof CompleteRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('completion/complete'),
      params: realSchema(CompleteRequestParamsSchema),
    }),
  isCompleteRequest,
);
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/**
 * Completion values: at most 100 per response (spec).
 *
 * @example
 * ```ts
 * const { completion } = CompleteResultSchema.parse({
 *   completion: { values: ['go', 'rust'], hasMore: false },
 * });
 * console.log(completion.values); // ['go', 'rust']
 * ```
 */
export const CompleteResultSchema: Extended<
  typeof ResultSchema,
  {
    completion: LooseObject<{
      values: z.ZodArray<z.ZodString>;
      total: z.ZodOptional<z.ZodNumber>;
      hasMore: z.ZodOptional<z.ZodBoolean>;
    }>;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      completion: z.looseObject({
        values: z.array(z.string()).max(100),
        total: z.number().int().optional(),
        hasMore: z.boolean().optional(),
      }),
    }),
  isCompleteResult,
);
export type CompleteResult = z.infer<typeof CompleteResultSchema>;
