import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isLoggingMessageNotification,
  isLoggingMessageNotificationParams,
  isSetLevelRequest,
  isSetLevelRequestParams,
} from './generated/checks.js';
import { LoggingLevelSchema, NotificationMetaObjectSchema } from './common.js';
import { RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/** Params of `logging/setLevel` (legacy era; 2026-07-28 sets the level per request in `_meta`). */
export const SetLevelRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { level: typeof LoggingLevelSchema }
> = lazySchema(
  () => realSchema(RequestParamsSchema).extend({ level: realSchema(LoggingLevelSchema) }),
  isSetLevelRequestParams,
);
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** `logging/setLevel` (legacy era only). */
export const SetLevelRequestSchema: LooseObject<{
  method: z.ZodLiteral<'logging/setLevel'>;
  params: typeof SetLevelRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('logging/setLevel'),
      params: realSchema(SetLevelRequestParamsSchema),
    }),
  isSetLevelRequest,
);
export type SetLevelRequest = z.infer<typeof SetLevelRequestSchema>;

/**
 * Params of `notifications/message`. `data` is any JSON value and must be present.
 *
 * @example
 * ```ts
 * const { level, logger, data } = LoggingMessageNotificationParamsSchema.parse({
 *   level: 'warning',
 *   logger: 'db',
 *   data: { slowQueryMs: 1200 },
 * });
 * console.log(`[${level}] ${logger}:`, data);
 * ```
 */
export const LoggingMessageNotificationParamsSchema: LooseObject<{
  level: typeof LoggingLevelSchema;
  logger: z.ZodOptional<z.ZodString>;
  data: z.ZodUnknown;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      level: realSchema(LoggingLevelSchema),
      logger: z.string().optional(),
      data: z.unknown(),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isLoggingMessageNotificationParams,
);
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

/** `notifications/message`: a log message from the server. */
export const LoggingMessageNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/message'>;
  params: typeof LoggingMessageNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/message'),
      params: realSchema(LoggingMessageNotificationParamsSchema),
    }),
  isLoggingMessageNotification,
);
export type LoggingMessageNotification = z.infer<typeof LoggingMessageNotificationSchema>;
