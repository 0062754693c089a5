import { z } from 'zod';
import { NotificationMetaObjectSchema, ProgressTokenSchema, RequestIdSchema } from './common.js';

/** Params of `notifications/cancelled`; `requestId` is optional only in 2025-11-25 (task cancellation). */
export const CancelledNotificationParamsSchema = z.looseObject({
  requestId: RequestIdSchema.optional(),
  reason: z.string().optional(),
  _meta: NotificationMetaObjectSchema.optional(),
});
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/** `notifications/cancelled` (either direction). */
export const CancelledNotificationSchema = z.looseObject({
  method: z.literal('notifications/cancelled'),
  params: CancelledNotificationParamsSchema,
});
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
export const ProgressNotificationParamsSchema = z.looseObject({
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
  _meta: NotificationMetaObjectSchema.optional(),
});
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/** `notifications/progress` (either direction). */
export const ProgressNotificationSchema = z.looseObject({
  method: z.literal('notifications/progress'),
  params: ProgressNotificationParamsSchema,
});
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;
