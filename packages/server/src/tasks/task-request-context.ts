import type {
  AuthInfo,
  MessageExtraInfo,
  MetaObject,
  OutgoingNotification,
  OutgoingRequest,
  ProgressToken,
  ProgressUpdate,
  RequestContext,
  RequestId,
  RequestInfo,
} from '@x/protocol';
import { PROGRESS_NOTIFICATION, type TaskRun, withRelatedTask } from '@x/protocol/internal';
import type { ServerSession } from '../session/server-session.js';

/**
 * The request context a task's handler runs with once its `tools/call` has been answered with a
 * `CreateTaskResult`: the original request's identity (id, `_meta`, progress token, auth), the task's
 * own signal, and routing through the task (spec 2025-11-25 basic/utilities/tasks):
 * - every message carries `_meta["io.modelcontextprotocol/related-task"]` ("Associating Task-Related Messages");
 * - requests to the client (elicitation, sampling, roots) wait for an open `tasks/result` and travel
 *   with it, the task showing `input_required` meanwhile ("Input Required Status");
 * - progress keeps the original `progressToken`, which "remains valid throughout the task lifetime".
 */
export class TaskRequestContext implements RequestContext {
  readonly #original: RequestContext;
  readonly #session: ServerSession;
  readonly #run: TaskRun;

  constructor(original: RequestContext, session: ServerSession, run: TaskRun) {
    this.#original = original;
    this.#session = session;
    this.#run = run;
  }

  get requestId(): RequestId {
    return this.#original.requestId;
  }

  get method(): string {
    return this.#original.method;
  }

  /** Aborted by `tasks/cancel`, `ttl` expiry, or the end of the requestor's session. */
  get signal(): AbortSignal {
    return this.#run.signal;
  }

  get _meta(): MetaObject | undefined {
    return this.#original._meta;
  }

  get progressToken(): ProgressToken | undefined {
    return this.#original.progressToken;
  }

  get sessionId(): string | undefined {
    return this.#original.sessionId;
  }

  get authInfo(): AuthInfo | undefined {
    return this.#original.authInfo;
  }

  get requestInfo(): RequestInfo | undefined {
    return this.#original.requestInfo;
  }

  get extra(): MessageExtraInfo | undefined {
    return this.#original.extra;
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
