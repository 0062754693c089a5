import * as z from 'zod';
import { InputRequestsSchema } from '../schemas/input-required.js';
import { lazySchema, realSchema } from '../schemas/lazy-schema.js';
import { isCreateTaskHandle, isDetailedTask } from '../schemas/generated/checks.js';
import { TaskStatusSchema } from '../schemas/tasks.js';

// The zod-free helpers of these tasks (`toDetailedTask`, `fromDetailedTask`, `TASKS_EXTENSION`) live in
// detailed-task.ts: they are on a browser client's first download, these schemas are not (core.ts).

/**
 * A task as the `io.modelcontextprotocol/tasks` extension puts it on the wire (SEP-2663 "Tasks",
 * `DetailedTask`): the 2025-11-25 fields renamed (`ttlMs`, `pollIntervalMs`), plus the payload of its
 * status inlined: `inputRequests` while `input_required`, `result` once `completed`, `error` once
 * `failed`. `CreateTaskResult` (`resultType: "task"`), `tasks/get` and `notifications/tasks` all carry it.
 *
 * @example
 * ```ts
 * const task = DetailedTaskSchema.parse(await client.request({ method: 'tasks/get', params: { taskId } }));
 * if (task.status === 'completed') console.log(task.result);
 * ```
 */
export const DetailedTaskSchema = lazySchema(
  () =>
    z.looseObject({
      taskId: z.string(),
      status: realSchema(TaskStatusSchema),
      statusMessage: z.string().optional(),
      createdAt: z.string(),
      lastUpdatedAt: z.string(),
      ttlMs: z.number().int().nullable(),
      pollIntervalMs: z.number().int().optional(),
      inputRequests: realSchema(InputRequestsSchema).optional(),
      result: z.record(z.string(), z.unknown()).optional(),
      error: z
        .looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() })
        .optional(),
    }),
  isDetailedTask,
);
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

/**
 * `CreateTaskResult` of the extension (SEP-2663 "Task Creation"): a flat `Result & Task` with
 * `resultType: "task"`, answered instead of the request's own result.
 *
 * @example
 * ```ts
 * const handle = CreateTaskHandleSchema.safeParse(result);
 * if (handle.success) console.log('poll', handle.data.taskId, 'every', handle.data.pollIntervalMs, 'ms');
 * ```
 */
export const CreateTaskHandleSchema = lazySchema(
  () => realSchema(DetailedTaskSchema).extend({ resultType: z.literal('task') }),
  isCreateTaskHandle,
);
export type CreateTaskHandle = z.infer<typeof CreateTaskHandleSchema>;
