import { z } from 'zod';
import {
  AnnotationsSchema,
  IconSchema,
  MetaObjectSchema,
  NotificationMetaObjectSchema,
  CacheableResultSchema,
  CursorSchema,
  NotificationParamsSchema,
} from './common.js';
import { ResourceContentsUnionSchema } from './content.js';
import { InputResponsesSchema } from './input-required.js';
import { PaginatedRequestParamsSchema, ResourceRequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/** A resource the server can read. */
export const ResourceSchema: LooseObject<{
  uri: z.ZodString;
  name: z.ZodString;
  title: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  mimeType: z.ZodOptional<z.ZodString>;
  size: z.ZodOptional<z.ZodNumber>;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  icons: z.ZodOptional<z.ZodArray<typeof IconSchema>>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations: AnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaObjectSchema.optional(),
});
export type Resource = z.infer<typeof ResourceSchema>;

/** A family of resources addressed by an RFC 6570 URI template. */
export const ResourceTemplateSchema: LooseObject<{
  uriTemplate: z.ZodString;
  name: z.ZodString;
  title: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  mimeType: z.ZodOptional<z.ZodString>;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  icons: z.ZodOptional<z.ZodArray<typeof IconSchema>>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaObjectSchema.optional(),
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** `resources/list`. */
export const ListResourcesRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = z.looseObject({
  method: z.literal('resources/list'),
  params: PaginatedRequestParamsSchema.optional(),
});
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** A page of resources. */
export const ListResourcesResultSchema: Extended<
  typeof CacheableResultSchema,
  { nextCursor: z.ZodOptional<typeof CursorSchema>; resources: z.ZodArray<typeof ResourceSchema> }
> = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
  resources: z.array(ResourceSchema),
});
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/templates/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = z.looseObject({
  method: z.literal('resources/templates/list'),
  params: PaginatedRequestParamsSchema.optional(),
});
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** A page of resource templates. */
export const ListResourceTemplatesResultSchema: Extended<
  typeof CacheableResultSchema,
  {
    nextCursor: z.ZodOptional<typeof CursorSchema>;
    resourceTemplates: z.ZodArray<typeof ResourceTemplateSchema>;
  }
> = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
  resourceTemplates: z.array(ResourceTemplateSchema),
});
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Params of `resources/read`; `inputResponses`/`requestState` are 2026-07-28. */
export const ReadResourceRequestParamsSchema: Extended<
  typeof ResourceRequestParamsSchema,
  { inputResponses: z.ZodOptional<typeof InputResponsesSchema>; requestState: z.ZodOptional<z.ZodString> }
> = ResourceRequestParamsSchema.extend({
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
});
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/read'>;
  params: typeof ReadResourceRequestParamsSchema;
}> = z.looseObject({
  method: z.literal('resources/read'),
  params: ReadResourceRequestParamsSchema,
});
export type ReadResourceRequest = z.infer<typeof ReadResourceRequestSchema>;

/**
 * A resource's contents.
 *
 * @example
 * ```ts
 * const { contents } = ReadResourceResultSchema.parse({
 *   contents: [{ uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' }],
 * });
 * for (const item of contents)
 *   console.log(item.uri, 'text' in item ? item.text : `${item.blob.length} base64 chars`);
 * ```
 */
export const ReadResourceResultSchema: Extended<
  typeof CacheableResultSchema,
  { contents: z.ZodArray<typeof ResourceContentsUnionSchema> }
> = CacheableResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Params of `resources/subscribe` (legacy era only; 2026-07-28 uses `subscriptions/listen`). */
export const SubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type SubscribeRequestParams = z.infer<typeof SubscribeRequestParamsSchema>;

/** `resources/subscribe` (legacy era only). */
export const SubscribeRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/subscribe'>;
  params: typeof SubscribeRequestParamsSchema;
}> = z.looseObject({
  method: z.literal('resources/subscribe'),
  params: SubscribeRequestParamsSchema,
});
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** Params of `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type UnsubscribeRequestParams = z.infer<typeof UnsubscribeRequestParamsSchema>;

/** `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/unsubscribe'>;
  params: typeof UnsubscribeRequestParamsSchema;
}> = z.looseObject({
  method: z.literal('resources/unsubscribe'),
  params: UnsubscribeRequestParamsSchema,
});
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequestSchema>;

/** `notifications/resources/list_changed`. */
export const ResourceListChangedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/resources/list_changed'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = z.looseObject({
  method: z.literal('notifications/resources/list_changed'),
  params: NotificationParamsSchema.optional(),
});
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema: LooseObject<{
  uri: z.ZodString;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = z.looseObject({
  uri: z.string(),
  _meta: NotificationMetaObjectSchema.optional(),
});
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** `notifications/resources/updated`: a subscribed resource changed. */
export const ResourceUpdatedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/resources/updated'>;
  params: typeof ResourceUpdatedNotificationParamsSchema;
}> = z.looseObject({
  method: z.literal('notifications/resources/updated'),
  params: ResourceUpdatedNotificationParamsSchema,
});
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
