import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isListResourceTemplatesRequest,
  isListResourceTemplatesResult,
  isListResourcesRequest,
  isListResourcesResult,
  isReadResourceRequest,
  isReadResourceRequestParams,
  isReadResourceResult,
  isResource,
  isResourceListChangedNotification,
  isResourceTemplate,
  isResourceUpdatedNotification,
  isResourceUpdatedNotificationParams,
  isSubscribeRequest,
  isUnsubscribeRequest,
} from './generated/checks.js';
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
}> = lazySchema(
  () =>
    z.looseObject({
      uri: z.string(),
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
      annotations: realSchema(AnnotationsSchema).optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isResource,
);
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
}> = lazySchema(
  () =>
    z.looseObject({
      uriTemplate: z.string(),
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      annotations: realSchema(AnnotationsSchema).optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isResourceTemplate,
);
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/** `resources/list`. */
export const ListResourcesRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('resources/list'),
      params: realSchema(PaginatedRequestParamsSchema).optional(),
    }),
  isListResourcesRequest,
);
export type ListResourcesRequest = z.infer<typeof ListResourcesRequestSchema>;

/** A page of resources. */
export const ListResourcesResultSchema: Extended<
  typeof CacheableResultSchema,
  { nextCursor: z.ZodOptional<typeof CursorSchema>; resources: z.ZodArray<typeof ResourceSchema> }
> = lazySchema(
  () =>
    realSchema(CacheableResultSchema).extend({
      nextCursor: realSchema(CursorSchema).optional(),
      resources: z.array(realSchema(ResourceSchema)),
    }),
  isListResourcesResult,
);
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/** `resources/templates/list`. */
export const ListResourceTemplatesRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/templates/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('resources/templates/list'),
      params: realSchema(PaginatedRequestParamsSchema).optional(),
    }),
  isListResourceTemplatesRequest,
);
export type ListResourceTemplatesRequest = z.infer<typeof ListResourceTemplatesRequestSchema>;

/** A page of resource templates. */
export const ListResourceTemplatesResultSchema: Extended<
  typeof CacheableResultSchema,
  {
    nextCursor: z.ZodOptional<typeof CursorSchema>;
    resourceTemplates: z.ZodArray<typeof ResourceTemplateSchema>;
  }
> = lazySchema(
  () =>
    realSchema(CacheableResultSchema).extend({
      nextCursor: realSchema(CursorSchema).optional(),
      resourceTemplates: z.array(realSchema(ResourceTemplateSchema)),
    }),
  isListResourceTemplatesResult,
);
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/** Params of `resources/read`; `inputResponses`/`requestState` are 2026-07-28. */
export const ReadResourceRequestParamsSchema: Extended<
  typeof ResourceRequestParamsSchema,
  { inputResponses: z.ZodOptional<typeof InputResponsesSchema>; requestState: z.ZodOptional<z.ZodString> }
> = lazySchema(
  () =>
    realSchema(ResourceRequestParamsSchema).extend({
      inputResponses: realSchema(InputResponsesSchema).optional(),
      requestState: z.string().optional(),
    }),
  isReadResourceRequestParams,
);
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** `resources/read`. */
export const ReadResourceRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/read'>;
  params: typeof ReadResourceRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('resources/read'),
      params: realSchema(ReadResourceRequestParamsSchema),
    }),
  isReadResourceRequest,
);
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
> = lazySchema(
  () =>
    realSchema(CacheableResultSchema).extend({
      contents: z.array(realSchema(ResourceContentsUnionSchema)),
    }),
  isReadResourceResult,
);
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/** Params of `resources/subscribe` (legacy era only; 2026-07-28 uses `subscriptions/listen`). */
export const SubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type SubscribeRequestParams = z.infer<typeof SubscribeRequestParamsSchema>;

/** `resources/subscribe` (legacy era only). */
export const SubscribeRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/subscribe'>;
  params: typeof SubscribeRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('resources/subscribe'),
      params: SubscribeRequestParamsSchema,
    }),
  isSubscribeRequest,
);
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** Params of `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestParamsSchema = ResourceRequestParamsSchema;
export type UnsubscribeRequestParams = z.infer<typeof UnsubscribeRequestParamsSchema>;

/** `resources/unsubscribe` (legacy era only). */
export const UnsubscribeRequestSchema: LooseObject<{
  method: z.ZodLiteral<'resources/unsubscribe'>;
  params: typeof UnsubscribeRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('resources/unsubscribe'),
      params: UnsubscribeRequestParamsSchema,
    }),
  isUnsubscribeRequest,
);
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequestSchema>;

/** `notifications/resources/list_changed`. */
export const ResourceListChangedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/resources/list_changed'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/resources/list_changed'),
      params: realSchema(NotificationParamsSchema).optional(),
    }),
  isResourceListChangedNotification,
);
export type ResourceListChangedNotification = z.infer<typeof ResourceListChangedNotificationSchema>;

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema: LooseObject<{
  uri: z.ZodString;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      uri: z.string(),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isResourceUpdatedNotificationParams,
);
export type ResourceUpdatedNotificationParams = z.infer<typeof ResourceUpdatedNotificationParamsSchema>;

/** `notifications/resources/updated`: a subscribed resource changed. */
export const ResourceUpdatedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/resources/updated'>;
  params: typeof ResourceUpdatedNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/resources/updated'),
      params: realSchema(ResourceUpdatedNotificationParamsSchema),
    }),
  isResourceUpdatedNotification,
);
export type ResourceUpdatedNotification = z.infer<typeof ResourceUpdatedNotificationSchema>;
