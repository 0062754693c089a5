import type { TaskStatus } from '../schemas/index.js';

/**
 * Whether a task status is final: `completed`, `failed` and `cancelled` never change again (spec
 * 2025-11-25 basic/utilities/tasks, "Task Status Lifecycle").
 *
 * @example
 * ```ts
 * const task = await client.getTask(taskId);
 * if (isTerminalTaskStatus(task.status)) console.log('done:', task.status);
 * ```
 */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The transitions the spec allows: `working` ↔ `input_required`, either of them → a terminal status,
 * nothing out of a terminal status.
 */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  if (isTerminalTaskStatus(from) || from === to) return false;
  return to !== 'working' || from === 'input_required';
}
