import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isGetPromptRequest,
  isGetPromptRequestParams,
  isGetPromptResult,
  isListPromptsRequest,
  isListPromptsResult,
  isPrompt,
  isPromptArgument,
  isPromptListChangedNotification,
  isPromptMessage,
} from './generated/checks.js';
import {
  CacheableResultSchema,
  CursorSchema,
  IconSchema,
  MetaObjectSchema,
  NotificationParamsSchema,
  ResultSchema,
  RoleSchema,
} from './common.js';
import { ContentBlockSchema } from './content.js';
import { InputResponsesSchema } from './input-required.js';
import { PaginatedRequestParamsSchema, RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/** An argument a prompt accepts. */
export const PromptArgumentSchema = lazySchema(
  () =>
    z.looseObject({
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      required: z.boolean().optional(),
    }),
  isPromptArgument,
);
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/** A prompt or prompt template the server offers. */
export const PromptSchema: LooseObject<{
  name: z.ZodString;
  title: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  arguments: z.ZodOptional<z.ZodArray<typeof PromptArgumentSchema>>;
  icons: z.ZodOptional<z.ZodArray<typeof IconSchema>>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      arguments: z.array(realSchema(PromptArgumentSchema)).optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isPrompt,
);
export type Prompt = z.infer<typeof PromptSchema>;

/** One message of a prompt. */
export const PromptMessageSchema: LooseObject<{
  role: typeof RoleSchema;
  content: typeof ContentBlockSchema;
}> = lazySchema(
  () => z.looseObject({ role: realSchema(RoleSchema), content: realSchema(ContentBlockSchema) }),
  isPromptMessage,
);
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** `prompts/list`. */
export const ListPromptsRequestSchema: LooseObject<{
  method: z.ZodLiteral<'prompts/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('prompts/list'),
      params: realSchema(PaginatedRequestParamsSchema).optional(),
    }),
  isListPromptsRequest,
);
export type ListPromptsRequest = z.infer<typeof ListPromptsRequestSchema>;

/** A page of prompts; `ttlMs`/`cacheScope` are 2026-07-28 cache hints. */
export const ListPromptsResultSchema: Extended<
  typeof CacheableResultSchema,
  { nextCursor: z.ZodOptional<typeof CursorSchema>; prompts: z.ZodArray<typeof PromptSchema> }
> = lazySchema(
  () =>
    realSchema(CacheableResultSchema).extend({
      nextCursor: realSchema(CursorSchema).optional(),
      prompts: z.array(realSchema(PromptSchema)),
    }),
  isListPromptsResult,
);
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/** Params of `prompts/get`; `inputResponses`/`requestState` are 2026-07-28. */
export const GetPromptRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    name: z.ZodString;
    arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
    inputResponses: z.ZodOptional<typeof InputResponsesSchema>;
    requestState: z.ZodOptional<z.ZodString>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      name: z.string(),
      arguments: z.record(z.string(), z.string()).optional(),
      inputResponses: realSchema(InputResponsesSchema).optional(),
      requestState: z.string().optional(),
    }),
  isGetPromptRequestParams,
);
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/get`. */
export const GetPromptRequestSchema: LooseObject<{
  method: z.ZodLiteral<'prompts/get'>;
  params: typeof GetPromptRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('prompts/get'),
      params: realSchema(GetPromptRequestParamsSchema),
    }),
  isGetPromptRequest,
);
export type GetPromptRequest = z.infer<typeof GetPromptRequestSchema>;

/**
 * A rendered prompt.
 *
 * @example
 * ```ts
 * const prompt = GetPromptResultSchema.parse({
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Review this diff' } }],
 * });
 * for (const { role, content } of prompt.messages)
 *   if (content.type === 'text') console.log(role, content.text);
 * ```
 */
export const GetPromptResultSchema: Extended<
  typeof ResultSchema,
  { description: z.ZodOptional<z.ZodString>; messages: z.ZodArray<typeof PromptMessageSchema> }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      description: z.string().optional(),
      messages: z.array(realSchema(PromptMessageSchema)),
    }),
  isGetPromptResult,
);
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/** `notifications/prompts/list_changed`. */
export const PromptListChangedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/prompts/list_changed'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/prompts/list_changed'),
      params: realSchema(NotificationParamsSchema).optional(),
    }),
  isPromptListChangedNotification,
);
export type PromptListChangedNotification = z.infer<typeof PromptListChangedNotificationSchema>;
