import {
  type AuthInfo,
  type ChangeNotice,
  type ClientCapabilities,
  type DetailedTask,
  type InputRequests,
  ErrorCode,
  isTerminalTaskStatus,
  McpError,
  MetaKey,
  type RequestContext,
  ResultType,
  TASKS_EXTENSION,
  type Task,
  toDetailedTask,
} from '@x/protocol/core';
import type { TaskReceiver } from '@x/protocol/internal';
import { ExtensionTaskRequest } from './extension-task-request.js';
import { TaskInbox } from './task-inbox.js';
import { principalKey } from './task-owner.js';
import { runningScope, type TaskScope } from './task-scope.js';

/**
 * Tells every process serving the endpoint (through the server's `fanOut`, when it has one): a task's
 * new state for the `subscriptions/listen` streams that asked for it, or a `tasks/cancel` /
 * `tasks/update` for the process running the task.
 */
export type TaskPublisher = (notice: ChangeNotice) => void;

/** The methods of the extension (SEP-2663); `tasks/result` and `tasks/list` are not among them. */
const METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/**
 * Owner of the tasks of requests without `authInfo`: 2026-07-28 has no session to bind to, so the
 * unguessable task id is the bearer handle (SEP-2663 "Task ID unguessability").
 */
const ANONYMOUS = 'anonymous';

/** -32021 naming the extension (SEP-2663 "Capability Negotiation"). */
export function missingTasksExtension(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} requires the client capability extensions["${TASKS_EXTENSION}"]`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** Whether a 2026-07-28 request declared the extension in its per-request capabilities. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    Object.hasOwn(extensions, TASKS_EXTENSION) &&
    (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined
  );
}

/**
 * The `io.modelcontextprotocol/tasks` extension (SEP-2663) on a server: task handles for `tools/call`,
 * `tasks/get` (the `DetailedTask`), `tasks/update` (answers to the task's `inputRequests`),
 * `tasks/cancel` (an ack) and the `notifications/tasks` a status change publishes. Runs on the
 * `TaskReceiver` of 2025-11-25 tasks (store, lifecycle, ttl, per-owner limits), with the wire of 2026.
 */
export class ExtensionTasks {
  readonly #receiver: TaskReceiver;
  readonly #publish: TaskPublisher;
  readonly #report: (error: unknown) => void;
  /** Input requests of the tasks running in this process. */
  readonly #inboxes = new Map<string, TaskInbox>();
  /**
   * The outstanding input requests of `input_required` tasks running in other processes, as their
   * `notifications/tasks` (through the fan-out) announced them: what `tasks/get` here shows when the
   * store does not keep them (`TaskStore.getInputRequests`).
   */
  readonly #remoteInputs = new Map<string, InputRequests>();

  constructor(receiver: TaskReceiver, publish: TaskPublisher, report: (error: unknown) => void) {
    this.#receiver = receiver;
    this.#publish = publish;
    this.#report = report;
  }

  /** Whether `method` is one of the extension's requests. */
  serves(method: string): boolean {
    return METHODS.has(method);
  }

  /** The task scope of one 2026-07-28 request. */
  scope(capabilities: ClientCapabilities): TaskScope {
    const declared = declaresTasks(capabilities);
    return {
      kind: 'extension',
      requested: declared ? {} : undefined,
      taskId: undefined,
      start: (request, work) => {
        if (!declared) return Promise.reject(missingTasksExtension('A task handle'));
        return this.start(request, work);
      },
      reportStatus: () => Promise.resolve(),
    };
  }

  /**
   * Creates the task (durably: the store has it before this resolves, SEP-2663 "Task Creation") and
   * answers the flat `CreateTaskResult`; `work` runs in the background.
   */
  async start(
    request: RequestContext,
    work: Parameters<TaskScope['start']>[1],
  ): Promise<Record<string, unknown>> {
    const owner = await ownerOf(request.authInfo);
    const created = await this.#receiver.start(
      { owner, method: request.method, notify: (task) => this.#notify(task, owner) },
      async (run) => {
        const inbox = new TaskInbox(run, (pending) => this.#storeInput(run.taskId, pending));
        this.#inboxes.set(run.taskId, inbox);
        try {
          const result = await work({
            request: new ExtensionTaskRequest(request, run),
            scope: runningScope(run, 'extension'),
            input: (spec, options) => inbox.ask(spec, options?.key),
          });
          return result as Record<string, unknown>;
        } finally {
          this.#inboxes.delete(run.taskId);
          inbox.close(new McpError(ErrorCode.InternalError, 'The task has ended'));
        }
      },
    );
    return { resultType: ResultType.Task, ...toDetailedTask(created.task) };
  }

  /** `tasks/get`, `tasks/update`, `tasks/cancel` (-32021 when the request did not declare the extension). */
  async handle(
    method: string,
    params: Record<string, unknown>,
    capabilities: ClientCapabilities,
    authInfo: AuthInfo | undefined,
  ): Promise<Record<string, unknown>> {
    // SEP-2663 "Protocol Errors": MUST for non-declaring clients issuing tasks/get, tasks/update, tasks/cancel.
    if (!declaresTasks(capabilities)) throw missingTasksExtension(method);
    const taskId = params['taskId'];
    if (typeof taskId !== 'string')
      throw new McpError(ErrorCode.InvalidParams, `${method} needs a string taskId`);
    const owner = await ownerOf(authInfo);
    // Unknown, expired or someone else's: -32602 (MUST for tasks/get, SHOULD for the others).
    const task = await this.#receiver.get(owner, taskId);
    if (method === 'tasks/get') return this.#detailed(task);
    if (method === 'tasks/update') {
      const responses = params['inputResponses'];
      if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
        throw new McpError(ErrorCode.InvalidParams, 'tasks/update needs an inputResponses object');
      }
      const inbox = this.#inboxes.get(taskId);
      const inputResponses = responses as Record<string, unknown>;
      // Eventually consistent ack: a task running in another process gets the answers through the fan-out.
      if (inbox !== undefined) await inbox.answer(inputResponses);
      else this.#publish({ kind: 'taskInput', taskId, owner, inputResponses });
      return {};
    }
    // tasks/cancel: an ack, also for a terminal task ("cooperative"; the status says what happened).
    if (!isTerminalTaskStatus(task.status)) {
      const elsewhere = !this.#receiver.runsHere(taskId);
      const cancelled = await this.#receiver.cancel(owner, taskId).then(
        () => true,
        (error: unknown) => {
          if (!(error instanceof McpError && error.code === ErrorCode.InvalidParams)) throw error;
          return false;
        },
      );
      // Recorded in the store; the process running the task stops it now (and its status goes out from there).
      if (cancelled && elsewhere) this.#publish({ kind: 'taskCancel', taskId, owner });
    }
    return {};
  }

  /** The `DetailedTask` of a task: its input requests, result or error inlined (SEP-2663 "Task Polling"). */
  async #detailed(task: Task): Promise<Record<string, unknown>> {
    const wire: DetailedTask = toDetailedTask(task);
    if (task.status === 'input_required') {
      const store = this.#receiver.store;
      wire.inputRequests =
        this.#inboxes.get(task.taskId)?.pending ??
        (store.getInputRequests === undefined
          ? this.#remoteInputs.get(task.taskId)
          : await store.getInputRequests(task.taskId)) ??
        {};
    } else if (task.status === 'completed' || task.status === 'failed') {
      const outcome = await this.#receiver.store.getOutcome(task.taskId);
      if (outcome !== undefined && 'result' in outcome && task.status === 'completed') {
        wire.result = withoutRelatedTask(outcome.result);
      } else if (outcome !== undefined && 'error' in outcome) {
        wire.error = outcome.error;
      } else if (task.status === 'failed') {
        wire.error = { code: ErrorCode.InternalError, message: task.statusMessage ?? 'The task failed' };
      }
    }
    return wire as Record<string, unknown>;
  }

  /** A task's new state, announced by any process: keeps the input requests of tasks running elsewhere. */
  observe(task: DetailedTask): void {
    const taskId = task.taskId;
    // The store has them, also for a process that starts later: no copy here.
    if (this.#inboxes.has(taskId) || this.#receiver.store.getInputRequests !== undefined) return;
    this.#remoteInputs.delete(taskId);
    if (task.status !== 'input_required' || task.inputRequests === undefined) return;
    // Bounded like the receiver's task table: the oldest entry goes first.
    if (this.#remoteInputs.size >= this.#receiver.maxTasks) {
      const oldest = this.#remoteInputs.keys().next().value;
      if (oldest !== undefined) this.#remoteInputs.delete(oldest);
    }
    this.#remoteInputs.set(taskId, task.inputRequests);
  }

  /** Answers to a task's input requests, from a `tasks/update` another process took; ignored unless it runs here. */
  receiveInput(taskId: string, inputResponses: Record<string, unknown>): Promise<void> | undefined {
    return this.#inboxes.get(taskId)?.answer(inputResponses);
  }

  /** Keeps a running task's pending input requests in the store (when it can) for every process. */
  #storeInput(taskId: string, pending: InputRequests | undefined): Promise<void> {
    const store = this.#receiver.store;
    if (store.setInputRequests === undefined) return Promise.resolve();
    return store.setInputRequests(taskId, pending).catch((error: unknown) => this.#report(error));
  }

  #notify(task: Task, owner: string): void {
    this.#detailed(task).then(
      (detailed) => this.#publish({ kind: 'task', task: detailed as DetailedTask, owner }),
      (error: unknown) => this.#report(error),
    );
  }
}

/** Whose 2026-07-28 task: the authenticated principal, else everyone holding the task id. */
export function ownerOf(authInfo: AuthInfo | undefined): Promise<string> {
  return authInfo === undefined ? Promise.resolve(ANONYMOUS) : principalKey(authInfo);
}

/** "The v1 io.modelcontextprotocol/related-task _meta key MUST NOT appear on the inlined result." */
function withoutRelatedTask(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result['_meta'];
  if (typeof meta !== 'object' || meta === null || !Object.hasOwn(meta, MetaKey.RelatedTask)) return result;
  const { [MetaKey.RelatedTask]: _related, ...rest } = meta as Record<string, unknown>;
  return { ...result, _meta: rest };
}
