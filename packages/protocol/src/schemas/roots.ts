import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isListRootsRequest,
  isListRootsResult,
  isRoot,
  isRootsListChangedNotification,
} from './generated/checks.js';
import { MetaObjectSchema, NotificationParamsSchema, ResultSchema } from './common.js';
import { RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/** A directory or file the client exposes to the server. */
export const RootSchema = lazySchema(
  () =>
    z.looseObject({
      uri: z.string(),
      name: z.string().optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isRoot,
);
export type Root = z.infer<typeof RootSchema>;

/** Params of `roots/list` (server → client; an input request in 2026-07-28). */
export const ListRootsRequestParamsSchema = RequestParamsSchema;
export type ListRootsRequestParams = z.infer<typeof ListRootsRequestParamsSchema>;

/** `roots/list` request. */
export const ListRootsRequestSchema: LooseObject<{
  method: z.ZodLiteral<'roots/list'>;
  params: z.ZodOptional<typeof ListRootsRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('roots/list'),
      params: ListRootsRequestParamsSchema.optional(),
    }),
  isListRootsRequest,
);
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/**
 * The client's roots.
 *
 * @example
 * ```ts
 * const { roots } = ListRootsResultSchema.parse({
 *   roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
 * });
 * console.log(roots.map((root) => root.uri)); // ['file:///home/ada/project']
 * ```
 */
export const ListRootsResultSchema: Extended<typeof ResultSchema, { roots: z.ZodArray<typeof RootSchema> }> =
  lazySchema(
    () => realSchema(ResultSchema).extend({ roots: z.array(realSchema(RootSchema)) }),
    isListRootsResult,
  );
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

/** `notifications/roots/list_changed` (client → server; removed in 2026-07-28). */
export const RootsListChangedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/roots/list_changed'>;
  params: z.ZodOptional<typeof NotificationParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/roots/list_changed'),
      params: realSchema(NotificationParamsSchema).optional(),
    }),
  isRootsListChangedNotification,
);
export type RootsListChangedNotification = z.infer<typeof RootsListChangedNotificationSchema>;
