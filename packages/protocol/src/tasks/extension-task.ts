import * as z from 'zod';
import { InputRequestsSchema } from '../schemas/input-required.js';
import { lazySchema, realSchema } from '../schemas/lazy-schema.js';
import { isCreateTaskHandle, isDetailedTask } from '../schemas/generated/checks.js';
import { TaskStatusSchema } from '../schemas/tasks.js';
import type { Task } from '../schemas/index.js';

/** The extension id of tasks on 2026-07-28 (SEP-2663, "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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

/**
 * The 2026-07-28 wire form of a stored task (SEP-2663 "Tasks"): `ttl` → `ttlMs` (null for unlimited),
 * `pollInterval` → `pollIntervalMs`; other fields as they are.
 *
 * @example
 * ```ts
 * const wire = toDetailedTask(record.task); // { taskId, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs }
 * ```
 */
export function toDetailedTask(task: Task): DetailedTask {
  const wire: DetailedTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl ?? null,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) wire.pollIntervalMs = task.pollInterval;
  return wire;
}

/**
 * The 2025-11-25 form of a 2026-07-28 task, so code written against one `Task` type reads both eras.
 *
 * @example
 * ```ts
 * const task = fromDetailedTask(DetailedTaskSchema.parse(created));
 * setTimeout(poll, task.pollInterval ?? 1_000);
 * ```
 */
export function fromDetailedTask(wire: DetailedTask): Task {
  const task: Task = {
    taskId: wire.taskId,
    status: wire.status,
    createdAt: wire.createdAt,
    lastUpdatedAt: wire.lastUpdatedAt,
    ttl: wire.ttlMs,
  };
  if (wire.statusMessage !== undefined) task.statusMessage = wire.statusMessage;
  if (wire.pollIntervalMs !== undefined) task.pollInterval = wire.pollIntervalMs;
  return task;
}
