import type { z } from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import { isNotificationParams, isPaginatedRequestParams, isRequestParams } from './generated/checks.js';
import { EmptyResultSchema, NotificationParamsSchema } from './common.js';
import { CompleteRequestParamsSchema, CompleteResultSchema } from './completion.js';
import {
  ElicitationCompleteNotificationParamsSchema,
  ElicitRequestParamsSchema,
  ElicitResultSchema,
} from './elicitation.js';
import { DiscoverResultSchema, InitializeRequestParamsSchema, InitializeResultSchema } from './lifecycle.js';
import { LoggingMessageNotificationParamsSchema, SetLevelRequestParamsSchema } from './logging.js';
import { CancelledNotificationParamsSchema, ProgressNotificationParamsSchema } from './notifications.js';
import { GetPromptRequestParamsSchema, GetPromptResultSchema, ListPromptsResultSchema } from './prompts.js';
import { PaginatedRequestParamsSchema, RequestParamsSchema } from './request-params.js';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceResultSchema,
  ResourceUpdatedNotificationParamsSchema,
  SubscribeRequestParamsSchema,
  UnsubscribeRequestParamsSchema,
} from './resources.js';
import { ListRootsResultSchema } from './roots.js';
import { CreateMessageRequestParamsSchema, CreateMessageResultSchema } from './sampling.js';
import {
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
} from './subscriptions.js';
import {
  CancelTaskResultSchema,
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  TaskIdParamsSchema,
  TaskStatusNotificationParamsSchema,
} from './tasks.js';
import { CallToolRequestParamsSchema, CallToolResultSchema, ListToolsResultSchema } from './tools.js';

/**
 * Method → params/result schemas over the union of all revisions, for the engine (look up the
 * params schema of an incoming request, the result schema of an outgoing one) and for typing
 * `request({ method, params })`. Which methods a given revision has is in `method-sets.ts`.
 *
 * `params` schemas accept `undefined` where some revision lets the params be omitted. `result` is
 * the method's final result; a 2026-07-28 result with `resultType: "input_required"` is an
 * `InputRequiredResult` and a 2025-11-25 task-augmented request answers with a `CreateTaskResult`,
 * which the engine tells apart before picking the schema here.
 */

/** One method's schemas. */
export interface MethodSchemaEntry<P extends z.ZodType, R extends z.ZodType> {
  readonly params: P;
  readonly result: R;
}

// Checks of the optional params below: params a revision lets the peer omit (`undefined` passes
// `.optional()` unchanged).
function isOptionalRequestParams(value: unknown): boolean {
  return value === undefined || isRequestParams(value);
}
function isOptionalPaginatedParams(value: unknown): boolean {
  return value === undefined || isPaginatedRequestParams(value);
}
function isOptionalNotificationParams(value: unknown): boolean {
  return value === undefined || isNotificationParams(value);
}
// The maps are annotated with `typeof` references so declaration emit names the schemas instead
// of inlining their (large) types once per method.
const OptionalRequestParams: z.ZodOptional<typeof RequestParamsSchema> = lazySchema(
  () => realSchema(RequestParamsSchema).optional(),
  isOptionalRequestParams,
);
const OptionalPaginatedParams: z.ZodOptional<typeof PaginatedRequestParamsSchema> = lazySchema(
  () => realSchema(PaginatedRequestParamsSchema).optional(),
  isOptionalPaginatedParams,
);
const OptionalNotificationParams: z.ZodOptional<typeof NotificationParamsSchema> = lazySchema(
  () => realSchema(NotificationParamsSchema).optional(),
  isOptionalNotificationParams,
);

/** Tasks of 2025-11-25: either side may ask the other about tasks it runs. */
type TaskRequests = {
  readonly 'tasks/get': MethodSchemaEntry<typeof TaskIdParamsSchema, typeof GetTaskResultSchema>;
  readonly 'tasks/result': MethodSchemaEntry<typeof TaskIdParamsSchema, typeof GetTaskPayloadResultSchema>;
  readonly 'tasks/cancel': MethodSchemaEntry<typeof TaskIdParamsSchema, typeof CancelTaskResultSchema>;
  readonly 'tasks/list': MethodSchemaEntry<typeof OptionalPaginatedParams, typeof ListTasksResultSchema>;
};
// Written out in each table, not spread: a bundler must keep an object literal with a spread (it may
// run getters), and these tables must drop out of a browser bundle that never reads them.
const TASKS_GET: TaskRequests['tasks/get'] = { params: TaskIdParamsSchema, result: GetTaskResultSchema };
const TASKS_RESULT: TaskRequests['tasks/result'] = {
  params: TaskIdParamsSchema,
  result: GetTaskPayloadResultSchema,
};
const TASKS_CANCEL: TaskRequests['tasks/cancel'] = {
  params: TaskIdParamsSchema,
  result: CancelTaskResultSchema,
};
const TASKS_LIST: TaskRequests['tasks/list'] = {
  params: OptionalPaginatedParams,
  result: ListTasksResultSchema,
};

/**
 * Requests a client sends to a server, every revision.
 *
 * @example
 * ```ts
 * // A server validating what arrives, a client validating what comes back:
 * const { name } = clientRequestSchemas['tools/call'].params.parse({
 *   name: 'echo',
 *   arguments: { text: 'hi' },
 * });
 * const result = clientRequestSchemas['tools/call'].result.parse({
 *   content: [{ type: 'text', text: 'hi' }],
 * });
 * ```
 */
export const clientRequestSchemas: {
  readonly initialize: MethodSchemaEntry<typeof InitializeRequestParamsSchema, typeof InitializeResultSchema>;
  readonly ping: MethodSchemaEntry<typeof OptionalRequestParams, typeof EmptyResultSchema>;
  readonly 'server/discover': MethodSchemaEntry<typeof OptionalRequestParams, typeof DiscoverResultSchema>;
  readonly 'resources/list': MethodSchemaEntry<
    typeof OptionalPaginatedParams,
    typeof ListResourcesResultSchema
  >;
  readonly 'resources/templates/list': MethodSchemaEntry<
    typeof OptionalPaginatedParams,
    typeof ListResourceTemplatesResultSchema
  >;
  readonly 'resources/read': MethodSchemaEntry<
    typeof ReadResourceRequestParamsSchema,
    typeof ReadResourceResultSchema
  >;
  readonly 'resources/subscribe': MethodSchemaEntry<
    typeof SubscribeRequestParamsSchema,
    typeof EmptyResultSchema
  >;
  readonly 'resources/unsubscribe': MethodSchemaEntry<
    typeof UnsubscribeRequestParamsSchema,
    typeof EmptyResultSchema
  >;
  readonly 'subscriptions/listen': MethodSchemaEntry<
    typeof SubscriptionsListenRequestParamsSchema,
    typeof SubscriptionsListenResultSchema
  >;
  readonly 'prompts/list': MethodSchemaEntry<typeof OptionalPaginatedParams, typeof ListPromptsResultSchema>;
  readonly 'prompts/get': MethodSchemaEntry<
    typeof GetPromptRequestParamsSchema,
    typeof GetPromptResultSchema
  >;
  readonly 'tools/list': MethodSchemaEntry<typeof OptionalPaginatedParams, typeof ListToolsResultSchema>;
  readonly 'tools/call': MethodSchemaEntry<typeof CallToolRequestParamsSchema, typeof CallToolResultSchema>;
  readonly 'logging/setLevel': MethodSchemaEntry<
    typeof SetLevelRequestParamsSchema,
    typeof EmptyResultSchema
  >;
  readonly 'completion/complete': MethodSchemaEntry<
    typeof CompleteRequestParamsSchema,
    typeof CompleteResultSchema
  >;
} & TaskRequests = {
  initialize: { params: InitializeRequestParamsSchema, result: InitializeResultSchema },
  ping: { params: OptionalRequestParams, result: EmptyResultSchema },
  'server/discover': { params: OptionalRequestParams, result: DiscoverResultSchema },
  'resources/list': { params: OptionalPaginatedParams, result: ListResourcesResultSchema },
  'resources/templates/list': { params: OptionalPaginatedParams, result: ListResourceTemplatesResultSchema },
  'resources/read': { params: ReadResourceRequestParamsSchema, result: ReadResourceResultSchema },
  'resources/subscribe': { params: SubscribeRequestParamsSchema, result: EmptyResultSchema },
  'resources/unsubscribe': { params: UnsubscribeRequestParamsSchema, result: EmptyResultSchema },
  'subscriptions/listen': {
    params: SubscriptionsListenRequestParamsSchema,
    result: SubscriptionsListenResultSchema,
  },
  'prompts/list': { params: OptionalPaginatedParams, result: ListPromptsResultSchema },
  'prompts/get': { params: GetPromptRequestParamsSchema, result: GetPromptResultSchema },
  'tools/list': { params: OptionalPaginatedParams, result: ListToolsResultSchema },
  'tools/call': { params: CallToolRequestParamsSchema, result: CallToolResultSchema },
  'logging/setLevel': { params: SetLevelRequestParamsSchema, result: EmptyResultSchema },
  'completion/complete': { params: CompleteRequestParamsSchema, result: CompleteResultSchema },
  'tasks/get': TASKS_GET,
  'tasks/result': TASKS_RESULT,
  'tasks/cancel': TASKS_CANCEL,
  'tasks/list': TASKS_LIST,
};

/**
 * Requests a server sends to a client (legacy era), which are input requests in 2026-07-28.
 *
 * @example
 * ```ts
 * const entry = serverRequestSchemas['elicitation/create'];
 * const params = entry.params.parse({
 *   message: 'Your name?',
 *   requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
 * });
 * const answer = entry.result.parse({ action: 'accept', content: { name: 'Ada' } });
 * ```
 */
export const serverRequestSchemas: {
  readonly ping: MethodSchemaEntry<typeof OptionalRequestParams, typeof EmptyResultSchema>;
  readonly 'sampling/createMessage': MethodSchemaEntry<
    typeof CreateMessageRequestParamsSchema,
    typeof CreateMessageResultSchema
  >;
  readonly 'roots/list': MethodSchemaEntry<typeof OptionalRequestParams, typeof ListRootsResultSchema>;
  readonly 'elicitation/create': MethodSchemaEntry<
    typeof ElicitRequestParamsSchema,
    typeof ElicitResultSchema
  >;
} & TaskRequests = {
  ping: { params: OptionalRequestParams, result: EmptyResultSchema },
  'sampling/createMessage': { params: CreateMessageRequestParamsSchema, result: CreateMessageResultSchema },
  'roots/list': { params: OptionalRequestParams, result: ListRootsResultSchema },
  'elicitation/create': { params: ElicitRequestParamsSchema, result: ElicitResultSchema },
  'tasks/get': TASKS_GET,
  'tasks/result': TASKS_RESULT,
  'tasks/cancel': TASKS_CANCEL,
  'tasks/list': TASKS_LIST,
};

/**
 * Notifications a client sends, every revision: method → params schema.
 *
 * @example
 * ```ts
 * const { requestId, reason } = clientNotificationSchemas['notifications/cancelled'].parse({
 *   requestId: 7,
 *   reason: 'user pressed stop',
 * });
 * ```
 */
export const clientNotificationSchemas: {
  readonly 'notifications/cancelled': typeof CancelledNotificationParamsSchema;
  readonly 'notifications/initialized': typeof OptionalNotificationParams;
  readonly 'notifications/progress': typeof ProgressNotificationParamsSchema;
  readonly 'notifications/roots/list_changed': typeof OptionalNotificationParams;
  readonly 'notifications/tasks/status': typeof TaskStatusNotificationParamsSchema;
} = {
  'notifications/cancelled': CancelledNotificationParamsSchema,
  'notifications/initialized': OptionalNotificationParams,
  'notifications/progress': ProgressNotificationParamsSchema,
  'notifications/roots/list_changed': OptionalNotificationParams,
  'notifications/tasks/status': TaskStatusNotificationParamsSchema,
};

/**
 * Notifications a server sends, every revision: method → params schema.
 *
 * @example
 * ```ts
 * protocol.setNotificationHandler(
 *   'notifications/message',
 *   serverNotificationSchemas['notifications/message'],
 *   ({ level, data }) => console.log(`[${level}]`, data),
 * );
 * ```
 */
export const serverNotificationSchemas: {
  readonly 'notifications/cancelled': typeof CancelledNotificationParamsSchema;
  readonly 'notifications/progress': typeof ProgressNotificationParamsSchema;
  readonly 'notifications/message': typeof LoggingMessageNotificationParamsSchema;
  readonly 'notifications/resources/updated': typeof ResourceUpdatedNotificationParamsSchema;
  readonly 'notifications/resources/list_changed': typeof OptionalNotificationParams;
  readonly 'notifications/prompts/list_changed': typeof OptionalNotificationParams;
  readonly 'notifications/tools/list_changed': typeof OptionalNotificationParams;
  readonly 'notifications/subscriptions/acknowledged': typeof SubscriptionsAcknowledgedNotificationParamsSchema;
  readonly 'notifications/elicitation/complete': typeof ElicitationCompleteNotificationParamsSchema;
  readonly 'notifications/tasks/status': typeof TaskStatusNotificationParamsSchema;
} = {
  'notifications/cancelled': CancelledNotificationParamsSchema,
  'notifications/progress': ProgressNotificationParamsSchema,
  'notifications/message': LoggingMessageNotificationParamsSchema,
  'notifications/resources/updated': ResourceUpdatedNotificationParamsSchema,
  'notifications/resources/list_changed': OptionalNotificationParams,
  'notifications/prompts/list_changed': OptionalNotificationParams,
  'notifications/tools/list_changed': OptionalNotificationParams,
  'notifications/subscriptions/acknowledged': SubscriptionsAcknowledgedNotificationParamsSchema,
  'notifications/elicitation/complete': ElicitationCompleteNotificationParamsSchema,
  'notifications/tasks/status': TaskStatusNotificationParamsSchema,
};

type RequestSchemas = Record<string, { readonly params: z.ZodType; readonly result: z.ZodType }>;

/** `{ [method]: { params, result } }` as TypeScript types (params as sent, result as parsed). */
export type RequestMap<S extends RequestSchemas> = {
  [M in keyof S]: { params: z.input<S[M]['params']>; result: z.output<S[M]['result']> };
};
/** `{ [method]: params }` as TypeScript types. */
export type NotificationMap<S extends Record<string, z.ZodType>> = { [M in keyof S]: z.input<S[M]> };

export type ClientRequestMap = RequestMap<typeof clientRequestSchemas>;
export type ServerRequestMap = RequestMap<typeof serverRequestSchemas>;
export type ClientNotificationMap = NotificationMap<typeof clientNotificationSchemas>;
export type ServerNotificationMap = NotificationMap<typeof serverNotificationSchemas>;

export type ClientRequestMethod = keyof typeof clientRequestSchemas;
export type ServerRequestMethod = keyof typeof serverRequestSchemas;
export type ClientNotificationMethod = keyof typeof clientNotificationSchemas;
export type ServerNotificationMethod = keyof typeof serverNotificationSchemas;
