import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isCancelledNotification,
  isCancelledNotificationParams,
  isProgressNotification,
  isProgressNotificationParams,
} from './generated/checks.js';
import { NotificationMetaObjectSchema, ProgressTokenSchema, RequestIdSchema } from './common.js';
import type { LooseObject } from './schema-types.js';

/** Params of `notifications/cancelled`; `requestId` is optional only in 2025-11-25 (task cancellation). */
export const CancelledNotificationParamsSchema: LooseObject<{
  requestId: z.ZodOptional<typeof RequestIdSchema>;
  reason: z.ZodOptional<z.ZodString>;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      requestId: realSchema(RequestIdSchema).optional(),
      reason: z.string().optional(),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isCancelledNotificationParams,
);
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled` (either direction). */
export const CancelledNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/cancelled'>;
  params: typeof CancelledNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/cancelled'),
      params: realSchema(CancelledNotificationParamsSchema),
    }),
  isCancelledNotification,
);
export type CancelledNotification = z.infer<typeof CancelledNotificationSchema>;

/**
 * Params of `notifications/progress`; `message` is 2025-03-26+.
 *
 * @example
 * ```ts
 * const { progress, total, message } = ProgressNotificationParamsSchema.parse({
 *   progressToken: 1,
 *   progress: 30,
 *   total: 100,
 *   message: 'Downloading',
 * });
 * console.log(`${message}: ${progress}/${total}`); // Downloading: 30/100
 * ```
 */
export const ProgressNotificationParamsSchema: LooseObject<{
  progressToken: typeof ProgressTokenSchema;
  progress: z.ZodNumber;
  total: z.ZodOptional<z.ZodNumber>;
  message: z.ZodOptional<z.ZodString>;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      progressToken: realSchema(ProgressTokenSchema),
      progress: z.number(),
      total: z.number().optional(),
      message: z.string().optional(),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isProgressNotificationParams,
);
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress` (either direction). */
export const ProgressNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/progress'>;
  params: typeof ProgressNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/progress'),
      params: realSchema(ProgressNotificationParamsSchema),
    }),
  isProgressNotification,
);
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;
