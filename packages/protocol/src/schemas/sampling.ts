import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isCreateMessageRequest,
  isCreateMessageRequestParams,
  isCreateMessageResult,
  isModelHint,
  isModelPreferences,
  isSamplingMessage,
  isToolChoice,
} from './generated/checks.js';
import { JSONObjectSchema, MetaObjectSchema, ResultSchema, RoleSchema } from './common.js';
import { SamplingMessageContentBlockSchema } from './content.js';
import { RequestParamsSchema } from './request-params.js';
import { TaskMetadataSchema } from './tasks.js';
import { ToolSchema } from './tool-definition.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * `sampling/createMessage`: a server→client request in the legacy era, an input request of an
 * `input_required` result in 2026-07-28 (where Sampling is deprecated but still defined).
 */

/** A hint for model selection. */
export const ModelHintSchema = lazySchema(() => z.looseObject({ name: z.string().optional() }), isModelHint);
export type ModelHint = z.infer<typeof ModelHintSchema>;

/** The server's model preferences; the client may ignore them. */
export const ModelPreferencesSchema: LooseObject<{
  hints: z.ZodOptional<z.ZodArray<typeof ModelHintSchema>>;
  costPriority: z.ZodOptional<z.ZodNumber>;
  speedPriority: z.ZodOptional<z.ZodNumber>;
  intelligencePriority: z.ZodOptional<z.ZodNumber>;
}> = lazySchema(
  () =>
    z.looseObject({
      hints: z.array(realSchema(ModelHintSchema)).optional(),
      costPriority: z.number().min(0).max(1).optional(),
      speedPriority: z.number().min(0).max(1).optional(),
      intelligencePriority: z.number().min(0).max(1).optional(),
    }),
  isModelPreferences,
);
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** How the model may use the offered tools (2025-11-25+). */
export const ToolChoiceSchema = lazySchema(
  () => z.looseObject({ mode: z.enum(['auto', 'required', 'none']).optional() }),
  isToolChoice,
);
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/** One block, or (2025-11-25+) several blocks. */
const SamplingContentSchema: z.ZodUnion<
  readonly [typeof SamplingMessageContentBlockSchema, z.ZodArray<typeof SamplingMessageContentBlockSchema>]
> = lazySchema(() =>
  z.union([
    realSchema(SamplingMessageContentBlockSchema),
    z.array(realSchema(SamplingMessageContentBlockSchema)),
  ]),
);

/** A message sent to or received from the model. */
export const SamplingMessageSchema: LooseObject<{
  role: typeof RoleSchema;
  content: typeof SamplingContentSchema;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      role: realSchema(RoleSchema),
      content: realSchema(SamplingContentSchema),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isSamplingMessage,
);
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** Params of `sampling/createMessage`. */
export const CreateMessageRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    messages: z.ZodArray<typeof SamplingMessageSchema>;
    modelPreferences: z.ZodOptional<typeof ModelPreferencesSchema>;
    systemPrompt: z.ZodOptional<z.ZodString>;
    includeContext: z.ZodOptional<
      z.ZodEnum<{ none: 'none'; thisServer: 'thisServer'; allServers: 'allServers' }>
    >;
    temperature: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodNumber;
    stopSequences: z.ZodOptional<z.ZodArray<z.ZodString>>;
    metadata: z.ZodOptional<typeof JSONObjectSchema>;
    tools: z.ZodOptional<z.ZodArray<typeof ToolSchema>>;
    toolChoice: z.ZodOptional<typeof ToolChoiceSchema>;
    task: z.ZodOptional<typeof TaskMetadataSchema>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      messages: z.array(realSchema(SamplingMessageSchema)),
      modelPreferences: realSchema(ModelPreferencesSchema).optional(),
      systemPrompt: z.string().optional(),
      /** `thisServer`/`allServers` are deprecated since 2025-11-25. */
      includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
      temperature: z.number().optional(),
      maxTokens: z.number().int(),
      stopSequences: z.array(z.string()).optional(),
      metadata: realSchema(JSONObjectSchema).optional(),
      tools: z.array(realSchema(ToolSchema)).optional(),
      toolChoice: realSchema(ToolChoiceSchema).optional(),
      task: realSchema(TaskMetadataSchema).optional(),
    }),
  isCreateMessageRequestParams,
);
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** `sampling/createMessage` request. */
export const CreateMessageRequestSchema: LooseObject<{
  method: z.ZodLiteral<'sampling/createMessage'>;
  params: typeof CreateMessageRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('sampling/createMessage'),
      params: realSchema(CreateMessageRequestParamsSchema),
    }),
  isCreateMessageRequest,
);
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/**
 * The model's answer. `stopReason` is open: `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, …
 *
 * @example
 * ```ts
 * const reply = CreateMessageResultSchema.parse({
 *   role: 'assistant',
 *   content: { type: 'text', text: 'Paris' },
 *   model: 'example-1',
 *   stopReason: 'endTurn',
 * });
 * console.log(reply.model, reply.stopReason); // example-1 endTurn
 * ```
 */
export const CreateMessageResultSchema: Extended<
  typeof ResultSchema,
  {
    role: typeof RoleSchema;
    content: typeof SamplingContentSchema;
    model: z.ZodString;
    stopReason: z.ZodOptional<z.ZodString>;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      role: realSchema(RoleSchema),
      content: realSchema(SamplingContentSchema),
      model: z.string(),
      stopReason: z.string().optional(),
    }),
  isCreateMessageResult,
);
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
