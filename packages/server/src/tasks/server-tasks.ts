import {
  type AuthInfo,
  type CreateTaskResult,
  ErrorCode,
  McpError,
  type RequestContext,
  type ServerCapabilities,
} from '@x/protocol/core';
import {
  randomUuid,
  type StartTaskOptions,
  TaskReceiver,
  type TaskReceiverOptions,
  type TaskRun,
} from '@x/protocol/internal';
import type { ServerSession } from '../session/server-session.js';
import { ExtensionTasks, type TaskPublisher } from './extension-tasks.js';
import { principalKey } from './task-owner.js';
import { TaskRequestContext } from './task-request-context.js';
import { runningScope, type TaskScope } from './task-scope.js';

/** The only revision with (experimental) tasks; 2026-07-28 moved them into an extension. */
export const TASKS_REVISION = '2025-11-25';

/**
 * `tasks` option of a server: task-augmented `tools/call` in both eras — experimental tasks (spec
 * 2025-11-25 basic/utilities/tasks), declared to 2025-11-25 sessions, and the
 * `io.modelcontextprotocol/tasks` extension (SEP-2663), advertised in `server/discover`. One store and
 * one set of limits serve both. Tasks belong to their requestor: to
 * the authenticated principal when the transport provides `authInfo` (its `extra.sub` when present,
 * else the client id and token), else to the session that created them, whose end stops them.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, {
 *   tasks: { defaultTtlMs: 60_000, maxTtlMs: 3_600_000, pollIntervalMs: 2_000, maxTasksPerOwner: 8 },
 * });
 * server.registerTool('render', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
 *   await ctx.sendProgress({ progress: 1, total: 2 });
 *   return { content: [{ type: 'text', text: 'rendered' }] };
 * });
 * ```
 */
export interface ServerTaskOptions extends TaskReceiverOptions {
  /** Declare `tasks.list` and answer `tasks/list`. Default true. */
  list?: boolean | undefined;
}

const TASK_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

/**
 * The server's half of tasks: one `TaskReceiver` shared by every session, the requestor key of each
 * request, the capability, and the `tasks/*` methods. Internal: configured through `ServerOptions.tasks`.
 */
export class ServerTasks {
  readonly receiver: TaskReceiver;
  readonly list: boolean;
  /** The 2026-07-28 extension, sharing the receiver (store, limits) with 2025-11-25 tasks. */
  readonly extension: ExtensionTasks;
  readonly #sessionKeys = new WeakMap<ServerSession, string>();
  readonly #report: (error: unknown) => void;
  readonly #publish: TaskPublisher;

  constructor(options: ServerTaskOptions, report: (error: unknown) => void, publish: TaskPublisher) {
    this.receiver = new TaskReceiver({ ...options, onerror: options.onerror ?? report });
    this.list = options.list ?? true;
    this.#report = report;
    this.#publish = publish;
    this.extension = new ExtensionTasks(this.receiver, publish, report);
  }

  /** The `tasks` capability for a server with these capabilities (spec "Server Capabilities"). */
  capability(capabilities: ServerCapabilities): NonNullable<ServerCapabilities['tasks']> {
    const tasks: NonNullable<ServerCapabilities['tasks']> = {};
    if (this.list) tasks.list = {};
    tasks.cancel = {};
    tasks.requests = capabilities.tools === undefined ? {} : { tools: { call: {} } };
    return tasks;
  }

  /** Whether `method` is one of the `tasks/*` requests this server answers. */
  serves(method: string): boolean {
    return TASK_METHODS.has(method) && (method !== 'tasks/list' || this.list);
  }

  /** The task scope of one request of a 2025-11-25 session. */
  scope(params: Record<string, unknown>, session: ServerSession): TaskScope {
    const task = params['task'];
    const requested =
      typeof task === 'object' && task !== null && !Array.isArray(task)
        ? {
            ttl:
              typeof (task as { ttl?: unknown }).ttl === 'number' ? (task as { ttl: number }).ttl : undefined,
          }
        : undefined;
    return {
      kind: 'legacy',
      requested,
      taskId: undefined,
      start: (request, work, failure) =>
        this.start(
          session,
          request,
          requested?.ttl,
          (taskRequest, run) => work({ request: taskRequest, scope: runningScope(run) }),
          failure,
        ),
      reportStatus: () => Promise.resolve(),
    };
  }

  async handle(
    method: string,
    params: Record<string, unknown>,
    session: ServerSession,
    request: RequestContext,
  ): Promise<Record<string, unknown>> {
    const owner = await this.ownerOf(session, request.authInfo);
    const taskId = params['taskId'];
    const elsewhere =
      method === 'tasks/cancel' && typeof taskId === 'string' && !this.receiver.runsHere(taskId);
    const result = await this.receiver.handle(method, params, owner, request);
    // Cancelled in the shared store: the process running the task stops it now, not at its next write.
    if (elsewhere) this.#publish({ kind: 'taskCancel', taskId: taskId as string, owner });
    return result;
  }

  /**
   * Accepts the request as a task: answers `CreateTaskResult` now and runs `work` in the background
   * with a context routed through the task.
   */
  async start(
    session: ServerSession,
    request: RequestContext,
    ttl: number | undefined,
    work: (request: RequestContext, run: TaskRun) => Promise<object> | object,
    failure: StartTaskOptions['failure'],
  ): Promise<CreateTaskResult> {
    const owner = await this.ownerOf(session, request.authInfo);
    return this.receiver.start(
      {
        owner,
        method: request.method,
        ttl,
        failure,
        // The notification carries the task itself, without related-task `_meta` (spec "Task Notifications").
        notify: (task) => {
          session
            .notification({ method: 'notifications/tasks/status', params: task })
            .catch((error: unknown) => this.#report(error));
        },
      },
      async (run) =>
        (await work(new TaskRequestContext(request, session, run), run)) as Record<string, unknown>,
    );
  }

  /** A session ended: the tasks only it could reach stop and are forgotten. */
  sessionClosed(session: ServerSession): void {
    const key = this.#sessionKeys.get(session);
    if (key === undefined) return;
    this.receiver.dropOwner(key, new McpError(ErrorCode.ConnectionClosed, 'The session of this task ended'));
  }

  /**
   * Whose task (spec "Task Isolation and Access Control": "When an authorization context is provided,
   * receivers MUST bind tasks to said context"): the authenticated principal, else the session.
   */
  async ownerOf(session: ServerSession, authInfo: AuthInfo | undefined): Promise<string> {
    if (authInfo !== undefined) return principalKey(authInfo);
    let key = this.#sessionKeys.get(session);
    if (key === undefined) {
      // A legacy session id names one session on every process that serves it (shared sessions, DESIGN
      // §9), so its tasks are reachable from each of them through a shared TaskStore.
      const sessionId = session.sessionId;
      key = sessionId === undefined ? `session:${randomUuid()}` : `session:${sessionId}`;
      this.#sessionKeys.set(session, key);
    }
    return key;
  }
}
