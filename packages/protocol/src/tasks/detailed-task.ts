import type { Task } from '../schemas/index.js';
import type { DetailedTask } from './extension-task.js';

/** The extension id of tasks on 2026-07-28 (SEP-2663, "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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
