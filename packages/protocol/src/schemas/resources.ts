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

/** A resource the server can read. */
export const ResourceSchema = z.looseObject({
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
export const ResourceTemplateSchema = z.looseObject({
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
export const ListResourcesRequestSchema = z.looseObject({
  method: z.literal('resources/list'),
  params: PaginatedRequestParamsSchema.optional(),
});
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** A page of resources. */
export const ListResourcesResultSchema = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
  resources: z.array(ResourceSchema),
});
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema = z.looseObject({
  method: z.literal('resources/templates/list'),
  params: PaginatedRequestParamsSchema.optional(),
});
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** A page of resource templates. */
export const ListResourceTemplatesResultSchema = CacheableResultSchema.extend({
  nextCursor: CursorSchema.optional(),
  resourceTemplates: z.array(ResourceTemplateSchema),
});
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Params of `resources/read`; `inputResponses`/`requestState` are 2026-07-28. */
export const ReadResourceRequestParamsSchema = ResourceRequestParamsSchema.extend({
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
});
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema = z.looseObject({
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
export const ReadResourceResultSchema = CacheableResultSchema.extend({
  contents: z.array(ResourceContentsUnionSchema),
});
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Params of `resources/subscribe` (legacy era only; 2026-07-28 uses `subscriptions/listen`). */
export const SubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type SubscribeRequestParams = z.infer<typeof SubscribeRequestParamsSchema>;

/** `resources/subscribe` (legacy era only). */
export const SubscribeRequestSchema = z.looseObject({
  method: z.literal('resources/subscribe'),
  params: SubscribeRequestParamsSchema,
});
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** Params of `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type UnsubscribeRequestParams = z.infer<typeof UnsubscribeRequestParamsSchema>;

/** `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestSchema = z.looseObject({
  method: z.literal('resources/unsubscribe'),
  params: UnsubscribeRequestParamsSchema,
});
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequestSchema>;

/** `notifications/resources/list_changed`. */
export const ResourceListChangedNotificationSchema = z.looseObject({
  method: z.literal('notifications/resources/list_changed'),
  params: NotificationParamsSchema.optional(),
});
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema = z.looseObject({
  uri: z.string(),
  _meta: NotificationMetaObjectSchema.optional(),
});
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** `notifications/resources/updated`: a subscribed resource changed. */
export const ResourceUpdatedNotificationSchema = z.looseObject({
  method: z.literal('notifications/resources/updated'),
  params: ResourceUpdatedNotificationParamsSchema,
});
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
