import type { OutgoingNotification, OutgoingRequest, ProgressUpdate, RequestContext } from '@x/protocol/core';
import { PROGRESS_NOTIFICATION, type TaskRun, withRelatedTask } from '@x/protocol/internal';
import type { ServerSession } from '../session/server-session.js';
import { TaskRequestBase } from './task-request-base.js';

/**
 * The request context a task's handler runs with once its `tools/call` has been answered with a
 * `CreateTaskResult`: the original request's identity (id, `_meta`, progress token, auth), the task's
 * own signal, and routing through the task (spec 2025-11-25 basic/utilities/tasks):
 * - every message carries `_meta["io.modelcontextprotocol/related-task"]` ("Associating Task-Related Messages");
 * - requests to the client (elicitation, sampling, roots) wait for an open `tasks/result` and travel
 *   with it, the task showing `input_required` meanwhile ("Input Required Status");
 * - progress keeps the original `progressToken`, which "remains valid throughout the task lifetime".
 */
export class TaskRequestContext extends TaskRequestBase {
  readonly #session: ServerSession;
  readonly #run: TaskRun;

  constructor(original: RequestContext, session: ServerSession, run: TaskRun) {
    super(original, run);
    this.#session = session;
    this.#run = run;
  }

  sendNotification(notification: OutgoingNotification): Promise<void> {
    const run = this.#run;
    return this.#session.notification(
      { method: notification.method, params: withRelatedTask(notification.params, run.taskId) },
      { relatedRequestId: run.stream },
    );
  }

  readonly sendRequest: RequestContext['sendRequest'] = (request: OutgoingRequest, resultSchema, options) => {
    const run = this.#run;
    const session = this.#session;
    const message = { method: request.method, params: withRelatedTask(request.params, run.taskId) };
    return run.input((relatedRequestId) =>
      session.request(message, resultSchema, {
        ...options,
        relatedRequestId,
        signal: options?.signal ?? run.signal,
      }),
    );
  };

  sendProgress(update: ProgressUpdate): Promise<void> {
    const progressToken = this.progressToken;
    if (progressToken === undefined || this.#run.signal.aborted) return Promise.resolve();
    const params: Record<string, unknown> = { progressToken, progress: update.progress };
    if (update.total !== undefined) params['total'] = update.total;
    if (update.message !== undefined) params['message'] = update.message;
    return this.sendNotification({ method: PROGRESS_NOTIFICATION, params });
  }
}
