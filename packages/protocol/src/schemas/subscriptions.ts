import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isSubscriptionFilter,
  isSubscriptionsAcknowledgedNotification,
  isSubscriptionsAcknowledgedNotificationParams,
  isSubscriptionsListenRequest,
  isSubscriptionsListenRequestParams,
  isSubscriptionsListenResult,
  isSubscriptionsListenResultMetaObject,
} from './generated/checks.js';
import {
  NotificationMetaObjectSchema,
  RequestIdSchema,
  ResultMetaObjectSchema,
  ResultSchema,
} from './common.js';
import { MetaKey } from './meta-keys.js';
import { RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * `subscriptions/listen` (2026-07-28, `basic/patterns/subscriptions`): one long-lived request whose
 * response stream carries the change notifications the client opted into. Replaces the legacy GET
 * stream and `resources/subscribe`.
 */

/** Which notifications the client wants on the stream. */
export const SubscriptionFilterSchema = lazySchema(
  () =>
    z.looseObject({
      toolsListChanged: z.boolean().optional(),
      promptsListChanged: z.boolean().optional(),
      resourcesListChanged: z.boolean().optional(),
      resourceSubscriptions: z.array(z.string()).optional(),
    }),
  isSubscriptionFilter,
);
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/**
 * Params of `subscriptions/listen`.
 *
 * @example
 * ```ts
 * const { notifications } = SubscriptionsListenRequestParamsSchema.parse({
 *   notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] },
 * });
 * console.log(notifications.resourceSubscriptions); // ['file:///notes.md']
 * ```
 */
export const SubscriptionsListenRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { notifications: typeof SubscriptionFilterSchema }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      notifications: realSchema(SubscriptionFilterSchema),
    }),
  isSubscriptionsListenRequestParams,
);
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

/** `subscriptions/listen`. */
export const SubscriptionsListenRequestSchema: LooseObject<{
  method: z.ZodLiteral<'subscriptions/listen'>;
  params: typeof SubscriptionsListenRequestParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('subscriptions/listen'),
      params: realSchema(SubscriptionsListenRequestParamsSchema),
    }),
  isSubscriptionsListenRequest,
);
export type SubscriptionsListenRequest = z.infer<typeof SubscriptionsListenRequestSchema>;

/** `_meta` of the final listen result: the subscription id the stream's notifications carried. */
export const SubscriptionsListenResultMetaObjectSchema: Extended<
  typeof ResultMetaObjectSchema,
  { [MetaKey.SubscriptionId]: typeof RequestIdSchema }
> = lazySchema(
  () =>
    realSchema(ResultMetaObjectSchema).extend({
      [MetaKey.SubscriptionId]: realSchema(RequestIdSchema),
    }),
  isSubscriptionsListenResultMetaObject,
);
export type SubscriptionsListenResultMetaObject = z.infer<typeof SubscriptionsListenResultMetaObjectSchema>;

/** Sent when the server ends the stream. */
export const SubscriptionsListenResultSchema: Extended<
  typeof ResultSchema,
  { _meta: typeof SubscriptionsListenResultMetaObjectSchema }
> = lazySchema(
  () =>
    realSchema(ResultSchema).extend({
      _meta: realSchema(SubscriptionsListenResultMetaObjectSchema),
    }),
  isSubscriptionsListenResult,
);
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

/** Params of `notifications/subscriptions/acknowledged`: the filter the server will honour. */
export const SubscriptionsAcknowledgedNotificationParamsSchema: LooseObject<{
  notifications: typeof SubscriptionFilterSchema;
  _meta: z.ZodOptional<typeof NotificationMetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      notifications: realSchema(SubscriptionFilterSchema),
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
    }),
  isSubscriptionsAcknowledgedNotificationParams,
);
export type SubscriptionsAcknowledgedNotificationParams = z.infer<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/** `notifications/subscriptions/acknowledged`: first message on a listen stream. */
export const SubscriptionsAcknowledgedNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/subscriptions/acknowledged'>;
  params: typeof SubscriptionsAcknowledgedNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/subscriptions/acknowledged'),
      params: realSchema(SubscriptionsAcknowledgedNotificationParamsSchema),
    }),
  isSubscriptionsAcknowledgedNotification,
);
export type SubscriptionsAcknowledgedNotification = z.infer<
  typeof SubscriptionsAcknowledgedNotificationSchema
>;
