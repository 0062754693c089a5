import { DEFAULT_TASK_POLL_INTERVAL_MS } from './task-defaults.js';
import type { Task } from '../schemas/index.js';
import { delay } from './task-receiver.js';
import { isTerminalTaskStatus } from './task-status.js';

/**
 * How a requestor reaches the receiver of one task: `tasks/get` and `tasks/result`.
 *
 * @example
 * ```ts
 * const peer: TaskPeer<CallToolResult> = {
 *   getTask: (taskId, signal) => client.getTask(taskId, { signal }),
 *   getTaskResult: (taskId, signal) => client.getTaskResult(taskId, { signal }),
 * };
 * ```
 */
export interface TaskPeer<R> {
  getTask(taskId: string, signal: AbortSignal | undefined): Promise<Task>;
  getTaskResult(taskId: string, signal: AbortSignal | undefined): Promise<R>;
}

/**
 * Options of `pollTask`.
 *
 * @example
 * ```ts
 * const options: PollTaskOptions = {
 *   signal: AbortSignal.timeout(600_000),
 *   onstatus: (task) => console.log(task.status, task.statusMessage ?? ''),
 * };
 * ```
 */
export interface PollTaskOptions {
  /** Stops polling (rejects with its reason). */
  signal?: AbortSignal | undefined;
  /** Every state seen, the first one included. */
  onstatus?: ((task: Task) => void) | undefined;
  /** Wait between polls when the receiver suggests no `pollInterval`. Default {@link DEFAULT_TASK_POLL_INTERVAL_MS} (1 s). */
  defaultPollIntervalMs?: number | undefined;
}

/**
 * The requestor's side of a task (spec 2025-11-25 basic/utilities/tasks, "Getting Tasks"): polls
 * `tasks/get` every `pollInterval` until the task is terminal or `input_required`, then calls
 * `tasks/result` (which delivers the receiver's pending requests and blocks until the task is done)
 * and resolves with the task's own result.
 *
 * @example
 * ```ts
 * const { task } = await client.callToolAsTask({ name: 'render', arguments: {} });
 * const result = await pollTask(peer, task, { onstatus: (t) => console.log(t.status) });
 * ```
 */
export async function pollTask<R>(peer: TaskPeer<R>, task: Task, options: PollTaskOptions = {}): Promise<R> {
  const { signal, onstatus } = options;
  let current = task;
  for (;;) {
    onstatus?.(current);
    if (isTerminalTaskStatus(current.status) || current.status === 'input_required') {
      return peer.getTaskResult(current.taskId, signal);
    }
    await delay(
      current.pollInterval ?? options.defaultPollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
      signal,
    );
    current = await peer.getTask(current.taskId, signal);
  }
}
