import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isCallToolRequest,
  isCallToolRequestParams,
  isCallToolResult,
  isListToolsRequest,
  isListToolsResult,
  isToolListChangedNotification,
} from './generated/checks.js';
import { CacheableResultSchema, CursorSchema, NotificationParamsSchema, ResultSchema } from './common.js';
import { ContentBlockSchema } from './content.js';
import { InputResponsesSchema } from './input-required.js';
import { PaginatedRequestParamsSchema, RequestParamsSchema } from './request-params.js';
import { TaskMetadataSchema } from './tasks.js';
import { ToolSchema } from './tool-definition.js';
import type { Extended, LooseObject } from './schema-types.js';

/** `tools/list`: params are optional before 2026-07-28 (where `_meta` makes them required). */
export const ListToolsRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tools/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tools/list'),
      params: realSchema(PaginatedRequestParamsSchema).optional(),
    }),
  isListToolsRequest,
);
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** A page of tools; `ttlMs`/`cacheScope` are 2026-07-28 cache hints. */
export const ListToolsResultSchema: Extended<
  typeof CacheableResultSchema,
  { nextCursor: z.ZodOptional<typeof CursorSchema>; tools: z.ZodArray<typeof ToolSchema> }
> = lazySchema(
  () =>
    realSchema(CacheableResultSchema).extend({
      nextCursor: realSchema(CursorSchema).optional(),
      tools: z.array(realSchema(ToolSchema)),
    }),
  isListToolsResult,
);
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Params of `tools/call`. `task` is 2025-11-25 only; `inputResponses`/`requestState` 2026-07-28. */
export const CallToolRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  {
    name: z.ZodString;
    arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    task: z.ZodOptional<typeof TaskMetadataSchema>;
    inputResponses: z.ZodOptional<typeof InputResponsesSchema>;
    requestState: z.ZodOptional<z.ZodString>;
  }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      task: realSchema(TaskMetadataSchema).optional(),
      inputResponses: realSchema(InputResponsesSchema).optional(),
      requestState: z.string().optional(),
    }),
  isCallToolRequestParams,
);
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call` request. */
export const CallToolRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tools/call'>;
  params: typeof CallToolRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tools/call'),
      params: realSchema(CallToolRequestParamsSchema),
    }),
  isCallToolRequest,
);
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/**
 * A tool's outcome. A failing tool reports `isError: true` here rather than a JSON-RPC error, so the
 * model can see it. `structuredContent` (2025-06-18+) is an object, any JSON value in 2026-07-28.
 *
 * @example
 * ```ts
 * const result = CallToolResultSchema.parse({
 *   content: [{ type: 'text', text: '21 °C' }],
 *   structuredContent: { celsius: 21 },
 * });
 * if (result.isError) throw new Error('the tool failed');
 * console.log(result.structuredContent); // { celsius: 21 }
 * ```
 */
export const CallToolResultSchema: Extended<
  typeof ResultSchema,
  {
    content: z.ZodArray<typeof ContentBlockSchema>;
    structuredContent: z.ZodOptional<z.ZodUnknown>;
    isError: z.ZodOptional<z.ZodBoolean>;
  }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      content: z.array(realSchema(ContentBlockSchema)),
      structuredContent: z.unknown().optional(),
      isError: z.boolean().optional(),
    }),
  isCallToolResult,
);
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** `notifications/tools/list_changed`. */
export const ToolListChangedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/tools/list_changed'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/tools/list_changed'),
      params: realSchema(NotificationParamsSchema).optional(),
    }),
  isToolListChangedNotification,
);
export type ToolListChangedNotification = z.infer<typeof ToolListChangedNotificationSchema>;
