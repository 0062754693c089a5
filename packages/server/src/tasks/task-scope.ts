import { ErrorCode, McpError, type RequestContext } from '@x/protocol/core';
import type { TaskRun } from '@x/protocol/internal';
import type { InputOptions, InputRequestSpec } from '../input-requests.js';

/**
 * What the work of a task gets from the scope that started it: the request context it runs with,
 * its own scope (inside the task) and, on 2026-07-28, where `ctx.elicit`/`ctx.sample` go (the task's
 * `inputRequests`, answered through `tasks/update`).
 */
export interface TaskChild {
  readonly request: RequestContext;
  readonly scope: TaskScope;
  readonly input?:
    | ((spec: InputRequestSpec, options: InputOptions | undefined) => Promise<unknown>)
    | undefined;
}

/**
 * What a request may do with tasks, in either era: experimental tasks of 2025-11-25 (the client asks with
 * `params.task`) or the `io.modelcontextprotocol/tasks` extension of 2026-07-28 (the client declares the
 * extension; the server decides). Set on every request of a server with `tasks` enabled.
 */
export interface TaskScope {
  /** 2025-11-25 (`legacy`) or the 2026-07-28 extension (`extension`). */
  readonly kind: 'legacy' | 'extension';
  /**
   * Whether the client accepts a task handle for this request: 2025-11-25 `params.task` (with its
   * requested `ttl`), or `{}` when a 2026-07-28 request declared the extension.
   */
  readonly requested: { ttl?: number | undefined } | undefined;
  /** Set on the scope a task's work runs with. */
  readonly taskId: string | undefined;
  /** Accepts the request as a task: the handle to answer with, while `work` runs in the background. */
  start(
    request: RequestContext,
    work: (child: TaskChild) => object | Promise<object>,
    failure: ((result: Record<string, unknown>) => { message?: string | undefined } | undefined) | undefined,
  ): Promise<object>;
  /** Sets the running task's `statusMessage` (a no-op outside a task). */
  reportStatus(message: string): Promise<void>;
}

/** The scope inside a running task: no nested tasks; `reportStatus` sets its `statusMessage`. */
export function runningScope(run: TaskRun, kind: TaskScope['kind'] = 'legacy'): TaskScope {
  return {
    kind,
    requested: undefined,
    taskId: run.taskId,
    start: () => Promise.reject(new McpError(ErrorCode.InvalidRequest, 'A task cannot start another task')),
    reportStatus: (message) => run.setStatusMessage(message),
  };
}
