import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isAnnotations,
  isBaseMetadata,
  isCacheScope,
  isCacheableResult,
  isCursor,
  isIcon,
  isIcons,
  isImplementation,
  isJSONObject,
  isJSONValue,
  isLoggingLevel,
  isMetaObject,
  isNotificationMetaObject,
  isNotificationParams,
  isPaginatedResult,
  isProgressToken,
  isRequestId,
  isResult,
  isResultMetaObject,
  isResultType,
  isRole,
} from './generated/checks.js';
import { CACHE_SCOPES, LOGGING_LEVELS, MetaKey } from './meta-keys.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * Building blocks every message shares, as superset schemas: each accepts the shape of every
 * revision (2024-11-05 … 2026-07-28) and keeps unknown keys, because the spec's objects are open
 * and a newer peer may send fields we do not know yet (nothing is silently stripped).
 */

/** A JSON-RPC request id. */
export const RequestIdSchema = lazySchema(() => z.union([z.string(), z.number().int()]), isRequestId);

/** Opaque token that opts a request into progress notifications. */
export const ProgressTokenSchema = lazySchema(() => z.union([z.string(), z.number().int()]), isProgressToken);

/** Opaque pagination cursor. */
export const CursorSchema = lazySchema(() => z.string(), isCursor);
export type Cursor = z.infer<typeof CursorSchema>;

/** Sender or recipient of a message in a conversation. */
export const RoleSchema = lazySchema(() => z.enum(['user', 'assistant']), isRole);
export type Role = z.infer<typeof RoleSchema>;

/** Syslog severity of a log message. */
export const LoggingLevelSchema = lazySchema(() => z.enum(LOGGING_LEVELS), isLoggingLevel);
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/** Any JSON value. Superset: also admits `null` and non-integers, which 2026-07-28's `JSONValue` omits. */
export const JSONValueSchema = lazySchema(() => z.json(), isJSONValue);
export type JSONValue = z.infer<typeof JSONValueSchema>;

/** A JSON object whose values are any JSON. */
export const JSONObjectSchema = lazySchema(() => z.record(z.string(), z.unknown()), isJSONObject);
export type JSONObject = z.infer<typeof JSONObjectSchema>;

/** Free-form `_meta` object (`MetaObject`); key naming rules are in the spec, not enforced here. */
export const MetaObjectSchema = lazySchema(() => z.looseObject({}), isMetaObject);

/** An icon a client may show for an implementation, tool, prompt or resource (2025-11-25+). */
export const IconSchema = lazySchema(
  () =>
    z.looseObject({
      src: z.string(),
      mimeType: z.string().optional(),
      sizes: z.array(z.string()).optional(),
      theme: z.enum(['light', 'dark']).optional(),
    }),
  isIcon,
);
export type Icon = z.infer<typeof IconSchema>;

/** Mixin of objects that may carry icons (2025-11-25+). */
export const IconsSchema: LooseObject<{ icons: z.ZodOptional<z.ZodArray<typeof IconSchema>> }> = lazySchema(
  () => z.looseObject({ icons: z.array(realSchema(IconSchema)).optional() }),
  isIcons,
);
export type Icons = z.infer<typeof IconsSchema>;

/** Name plus optional display title (`title` since 2025-06-18). */
export const BaseMetadataSchema = lazySchema(
  () => z.looseObject({ name: z.string(), title: z.string().optional() }),
  isBaseMetadata,
);
export type BaseMetadata = z.infer<typeof BaseMetadataSchema>;

/**
 * Name and version of a client or server (`title` 2025-06-18+, icons/description/websiteUrl 2025-11-25+).
 *
 * @example
 * ```ts
 * const info = ImplementationSchema.parse({ name: 'files', version: '1.2.0', title: 'Project files' });
 * console.log(ImplementationSchema.safeParse({ name: 'files' }).success); // false: `version` is required
 * ```
 */
export const ImplementationSchema: LooseObject<{
  name: z.ZodString;
  version: z.ZodString;
  title: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  icons: z.ZodOptional<z.ZodArray<typeof IconSchema>>;
  websiteUrl: z.ZodOptional<z.ZodString>;
}> = lazySchema(
  () =>
    z.looseObject({
      name: z.string(),
      version: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      websiteUrl: z.string().optional(),
    }),
  isImplementation,
);
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Hints about how a client should use an object (2024-11-05 `Annotated`; `lastModified` 2025-06-18+). */
export const AnnotationsSchema = lazySchema(
  () =>
    z.looseObject({
      audience: z.array(realSchema(RoleSchema)).optional(),
      priority: z.number().min(0).max(1).optional(),
      lastModified: z.string().optional(),
    }),
  isAnnotations,
);
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** `cacheScope` of a cacheable result (2026-07-28). */
export const CacheScopeSchema = lazySchema(() => z.enum(CACHE_SCOPES), isCacheScope);
export type CacheScope = z.infer<typeof CacheScopeSchema>;

/** `resultType` of a result (2026-07-28): an open string; `complete` and `input_required` are defined. */
export const ResultTypeSchema = lazySchema(() => z.string(), isResultType);

/** `_meta` of a result: 2026-07-28 names `io.modelcontextprotocol/serverInfo`. */
export const ResultMetaObjectSchema: LooseObject<{
  [MetaKey.ServerInfo]: z.ZodOptional<typeof ImplementationSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      [MetaKey.ServerInfo]: realSchema(ImplementationSchema).optional(),
    }),
  isResultMetaObject,
);
export type ResultMetaObject = z.infer<typeof ResultMetaObjectSchema>;

/** `_meta` of a notification: 2026-07-28 tags subscription-stream notifications with their stream id. */
export const NotificationMetaObjectSchema = lazySchema(
  () =>
    z.looseObject({
      [MetaKey.SubscriptionId]: realSchema(RequestIdSchema).optional(),
    }),
  isNotificationMetaObject,
);
export type NotificationMetaObject = z.infer<typeof NotificationMetaObjectSchema>;

/** Fields every result may carry. `resultType` is required on the wire from 2026-07-28 on only. */
export const ResultSchema: LooseObject<{
  _meta: z.ZodOptional<typeof ResultMetaObjectSchema>;
  resultType: z.ZodOptional<typeof ResultTypeSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      _meta: realSchema(ResultMetaObjectSchema).optional(),
      resultType: realSchema(ResultTypeSchema).optional(),
    }),
  isResult,
);
export type Result = z.infer<typeof ResultSchema>;

/** A result with nothing in it but the common fields (e.g. the answer to `ping`). */
export const EmptyResultSchema = ResultSchema;
export type EmptyResult = Result;

/** Caching hints of 2026-07-28 list/read results (`CacheableResult`): required there, absent before. */
export const CacheableResultSchema: Extended<
  typeof ResultSchema,
  { ttlMs: z.ZodOptional<z.ZodNumber>; cacheScope: z.ZodOptional<typeof CacheScopeSchema> }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      ttlMs: z.number().int().min(0).optional(),
      cacheScope: realSchema(CacheScopeSchema).optional(),
    }),
  isCacheableResult,
);
export type CacheableResult = z.infer<typeof CacheableResultSchema>;

/** Params of a notification that has no other params. */
export const NotificationParamsSchema: LooseObject<{
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () => z.looseObject({ _meta: realSchema(NotificationMetaObjectSchema).optional() }),
  isNotificationParams,
);
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/** A result page with an optional cursor for the next one. */
export const PaginatedResultSchema: Extended<
  typeof ResultSchema,
  { nextCursor: z.ZodOptional<typeof CursorSchema> }
> = lazySchema(
  () => realSchema(ResultSchema).extend({ nextCursor: realSchema(CursorSchema).optional() }),
  isPaginatedResult,
);
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;
