import { ErrorCode, McpError, type ProgressUpdate, type RequestContext } from '@x/protocol/core';
import type { TaskRun } from '@x/protocol/internal';
import { TaskRequestBase } from './task-request-base.js';

/**
 * The request context a 2026-07-28 task's work runs with once its `tools/call` was answered with a
 * `CreateTaskResult`: the original request's identity, the task's own signal (`tasks/cancel`, `ttlMs`).
 * Nothing travels on the original response any more, so progress becomes the task's `statusMessage`
 * (SEP-2663: "notifications/progress and notifications/message ... are not supported on tasks") and
 * other notifications are dropped; server→client requests become task `inputRequests` (see `TaskInbox`).
 */
export class ExtensionTaskRequest extends TaskRequestBase {
  readonly #run: TaskRun;

  constructor(original: RequestContext, run: TaskRun) {
    super(original, run);
    this.#run = run;
  }

  sendNotification(): Promise<void> {
    return Promise.resolve();
  }

  readonly sendRequest = (): Promise<never> =>
    Promise.reject(
      new McpError(
        ErrorCode.InternalError,
        'A 2026-07-28 task sends no requests to the client: use ctx.elicit/ctx.sample (task inputRequests)',
      ),
    );

  /** Progress of a task is its `statusMessage`: the update's message, else `progress/total`. */
  sendProgress(update: ProgressUpdate): Promise<void> {
    const message =
      update.message ??
      (update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`);
    return this.#run.setStatusMessage(message);
  }
}
