import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isCancelTaskRequest,
  isCreateTaskResult,
  isGetTaskPayloadRequest,
  isGetTaskRequest,
  isGetTaskResult,
  isListTasksRequest,
  isListTasksResult,
  isRelatedTaskMetadata,
  isTask,
  isTaskAugmentedRequestParams,
  isTaskIdParams,
  isTaskMetadata,
  isTaskStatus,
  isTaskStatusNotification,
  isTaskStatusNotificationParams,
} from './generated/checks.js';
import { NotificationMetaObjectSchema, PaginatedResultSchema, ResultSchema } from './common.js';
import { TASK_STATUSES } from './meta-keys.js';
import { PaginatedRequestParamsSchema, RequestParamsSchema } from './request-params.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * Experimental tasks of 2025-11-25 (`tasks/*`, task-augmented requests). 2026-07-28 moved them into
 * the `io.modelcontextprotocol/tasks` extension, so they exist in the legacy era only.
 */

/** Lifecycle state of a task. */
export const TaskStatusSchema = lazySchema(() => z.enum(TASK_STATUSES), isTaskStatus);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Asks the receiver to run a request as a task (`params.task`). */
export const TaskMetadataSchema = lazySchema(
  () => z.looseObject({ ttl: z.number().int().optional() }),
  isTaskMetadata,
);
export type TaskMetadata = z.infer<typeof TaskMetadataSchema>;

/** `_meta["io.modelcontextprotocol/related-task"]`: ties a message to a task. */
export const RelatedTaskMetadataSchema = lazySchema(
  () => z.looseObject({ taskId: z.string() }),
  isRelatedTaskMetadata,
);
export type RelatedTaskMetadata = z.infer<typeof RelatedTaskMetadataSchema>;

/** Params of a request that may be task-augmented. */
export const TaskAugmentedRequestParamsSchema: Extended<
  typeof RequestParamsSchema,
  { task: z.ZodOptional<typeof TaskMetadataSchema> }
> = lazySchema(
  () =>
    realSchema(RequestParamsSchema).extend({
      task: realSchema(TaskMetadataSchema).optional(),
    }),
  isTaskAugmentedRequestParams,
);
export type TaskAugmentedRequestParams = z.infer<typeof TaskAugmentedRequestParamsSchema>;

/**
 * State of a task.
 *
 * @example
 * ```ts
 * const task = TaskSchema.parse({
 *   taskId: 'task-1',
 *   status: 'working',
 *   ttl: 60_000,
 *   pollInterval: 1_000,
 *   createdAt: '2025-11-25T10:00:00Z',
 *   lastUpdatedAt: '2025-11-25T10:00:05Z',
 * });
 * if (task.status === 'working')
 *   setTimeout(() => console.log('poll', task.taskId), task.pollInterval ?? 1_000);
 * ```
 */
export const TaskSchema: LooseObject<{
  taskId: z.ZodString;
  status: typeof TaskStatusSchema;
  statusMessage: z.ZodOptional<z.ZodString>;
  createdAt: z.ZodString;
  lastUpdatedAt: z.ZodString;
  ttl: z.ZodNullable<z.ZodNumber>;
  pollInterval: z.ZodOptional<z.ZodNumber>;
}> = lazySchema(
  () =>
    z.looseObject({
      taskId: z.string(),
      status: realSchema(TaskStatusSchema),
      statusMessage: z.string().optional(),
      createdAt: z.string(),
      lastUpdatedAt: z.string(),
      ttl: z.number().int().nullable(),
      pollInterval: z.number().int().optional(),
    }),
  isTask,
);
export type Task = z.infer<typeof TaskSchema>;

/** Answer to a task-augmented request: the task handle instead of the result. */
export const CreateTaskResultSchema: Extended<typeof ResultSchema, { task: typeof TaskSchema }> = lazySchema(
  () => realSchema(ResultSchema).extend({ task: realSchema(TaskSchema) }),
  isCreateTaskResult,
);
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** Params naming one task. */
export const TaskIdParamsSchema: Extended<typeof RequestParamsSchema, { taskId: z.ZodString }> = lazySchema(
  () => realSchema(RequestParamsSchema).extend({ taskId: z.string() }),
  isTaskIdParams,
);
export type TaskIdParams = z.infer<typeof TaskIdParamsSchema>;

/** `tasks/get`. */
export const GetTaskRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tasks/get'>;
  params: typeof TaskIdParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tasks/get'),
      params: realSchema(TaskIdParamsSchema),
    }),
  isGetTaskRequest,
);
export type GetTaskRequest = z.infer<typeof GetTaskRequestSchema>;

/** A task's current state. */
export const GetTaskResultSchema: Extended<typeof ResultSchema, typeof TaskSchema.shape> = lazySchema(
  () => realSchema(ResultSchema).extend(realSchema(TaskSchema).shape),
  isGetTaskResult,
);
export type GetTaskResult = z.infer<typeof GetTaskResultSchema>;

/** `tasks/result`: blocks until the task's own result is ready. */
export const GetTaskPayloadRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tasks/result'>;
  params: typeof TaskIdParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tasks/result'),
      params: realSchema(TaskIdParamsSchema),
    }),
  isGetTaskPayloadRequest,
);
export type GetTaskPayloadRequest = z.infer<typeof GetTaskPayloadRequestSchema>;

/** The task's underlying result, whatever its request returns. */
export const GetTaskPayloadResultSchema = ResultSchema;
export type GetTaskPayloadResult = z.infer<typeof GetTaskPayloadResultSchema>;

/** `tasks/cancel`. */
export const CancelTaskRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tasks/cancel'>;
  params: typeof TaskIdParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tasks/cancel'),
      params: realSchema(TaskIdParamsSchema),
    }),
  isCancelTaskRequest,
);
export type CancelTaskRequest = z.infer<typeof CancelTaskRequestSchema>;

/** The cancelled task's state. */
export const CancelTaskResultSchema = GetTaskResultSchema;
export type CancelTaskResult = z.infer<typeof CancelTaskResultSchema>;

/** `tasks/list`. */
export const ListTasksRequestSchema: LooseObject<{
  method: z.ZodLiteral<'tasks/list'>;
  params: z.ZodOptional<typeof PaginatedRequestParamsSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('tasks/list'),
      params: realSchema(PaginatedRequestParamsSchema).optional(),
    }),
  isListTasksRequest,
);
export type ListTasksRequest = z.infer<typeof ListTasksRequestSchema>;

/** A page of tasks. */
export const ListTasksResultSchema: Extended<
  typeof PaginatedResultSchema,
  { tasks: z.ZodArray<typeof TaskSchema> }
> = lazySchema(
  () => realSchema(PaginatedResultSchema).extend({ tasks: z.array(realSchema(TaskSchema)) }),
  isListTasksResult,
);
export type ListTasksResult = z.infer<typeof ListTasksResultSchema>;

/** Params of `notifications/tasks/status`: the task's new state. */
export const TaskStatusNotificationParamsSchema: LooseObject<
  z.core.util.Extend<{ _meta: z.ZodOptional<typeof NotificationMetaObjectSchema> }, typeof TaskSchema.shape>
> = lazySchema(
  () =>
    z.looseObject({
      _meta: realSchema(NotificationMetaObjectSchema).optional(),
      ...TaskSchema.shape,
    }),
  isTaskStatusNotificationParams,
);
export type TaskStatusNotificationParams = z.infer<typeof TaskStatusNotificationParamsSchema>;

/** `notifications/tasks/status` (either direction). */
export const TaskStatusNotificationSchema: LooseObject<{
  method: z.ZodLiteral<'notifications/tasks/status'>;
  params: typeof TaskStatusNotificationParamsSchema;
}> = lazySchema(
  () =>
    z.looseObject({
      method: z.literal('notifications/tasks/status'),
      params: realSchema(TaskStatusNotificationParamsSchema),
    }),
  isTaskStatusNotification,
);
export type TaskStatusNotification = z.infer<typeof TaskStatusNotificationSchema>;
