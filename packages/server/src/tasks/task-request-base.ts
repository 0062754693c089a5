import type {
  AuthInfo,
  MessageExtraInfo,
  MetaObject,
  OutgoingNotification,
  ProgressToken,
  ProgressUpdate,
  RequestContext,
  RequestId,
  RequestInfo,
} from '@x/protocol/core';
import type { TaskRun } from '@x/protocol/internal';

/**
 * What the request context of a task's work shares in both eras once its `tools/call` has been
 * answered with a `CreateTaskResult`: the identity of the request that started the task (id, method,
 * `_meta`, progress token, session, auth) and the task's own signal, aborted by `tasks/cancel`, `ttl`
 * expiry or the end of the requestor's session. Each era's subclass says where the task's messages go.
 */
export abstract class TaskRequestBase implements RequestContext {
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

  abstract sendNotification(notification: OutgoingNotification): Promise<void>;
  abstract sendRequest: RequestContext['sendRequest'];
  abstract sendProgress(update: ProgressUpdate): Promise<void>;
}
