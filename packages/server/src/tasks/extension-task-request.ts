import {
  type AuthInfo,
  ErrorCode,
  McpError,
  type MessageExtraInfo,
  type MetaObject,
  type ProgressToken,
  type ProgressUpdate,
  type RequestContext,
  type RequestId,
  type RequestInfo,
} from '@x/protocol';
import type { TaskRun } from '@x/protocol/internal';

/**
 * The request context a 2026-07-28 task's work runs with once its `tools/call` was answered with a
 * `CreateTaskResult`: the original request's identity, the task's own signal (`tasks/cancel`, `ttlMs`).
 * Nothing travels on the original response any more, so progress becomes the task's `statusMessage`
 * (SEP-2663: "notifications/progress and notifications/message ... are not supported on tasks") and
 * other notifications are dropped; server→client requests become task `inputRequests` (see `TaskInbox`).
 */
export class ExtensionTaskRequest implements RequestContext {
  readonly #original: RequestContext;
  readonly #run: TaskRun;

  constructor(original: RequestContext, run: TaskRun) {
    this.#original = original;
    this.#run = run;
  }

  get requestId(): RequestId {
    return this.#original.requestId;
  }

  get method(): string {
    return this.#original.method;
  }

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

  sendNotification(): Promise<void> {
    return Promise.resolve();
  }

  sendRequest(): Promise<never> {
    return Promise.reject(
      new McpError(
        ErrorCode.InternalError,
        'A 2026-07-28 task sends no requests to the client: use ctx.elicit/ctx.sample (task inputRequests)',
      ),
    );
  }

  /** Progress of a task is its `statusMessage`: the update's message, else `progress/total`. */
  sendProgress(update: ProgressUpdate): Promise<void> {
    const message =
      update.message ??
      (update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`);
    return this.#run.setStatusMessage(message);
  }
}
