import {
  DEFAULT_MAX_TASK_TTL_MS,
  DEFAULT_MAX_TASKS,
  DEFAULT_MAX_TASKS_PER_OWNER,
  DEFAULT_TASK_PAGE_SIZE,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
} from './task-defaults.js';
import { ErrorCode, McpError } from '../errors.js';
import type { RequestId } from '../jsonrpc.js';
import { randomUuid } from '../random-uuid.js';
import { MetaKey } from '../schemas/meta-keys.js';
import type { CreateTaskResult, ListTasksResult, Task } from '../schemas/index.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { TaskRun } from './task-run.js';
import { isTerminalTaskStatus } from './task-status.js';
import type { StoredTask, TaskOutcome, TaskStore } from './task-store.js';

/**
 * Limits and storage of a `TaskReceiver` (spec 2025-11-25 basic/utilities/tasks, "Resource
 * Management": receivers SHOULD cap `ttl` and concurrent tasks per requestor, and document both).
 *
 * @example
 * ```ts
 * const options: TaskReceiverOptions = {
 *   defaultTtlMs: 5 * 60_000, // when the requestor asks for no ttl
 *   maxTtlMs: 60 * 60_000, // longer requests are capped
 *   pollIntervalMs: 2_000,
 *   maxTasksPerOwner: 10,
 * };
 * ```
 */
export interface TaskReceiverOptions {
  /** Where tasks live. Default: a new `InMemoryTaskStore`. */
  store?: TaskStore | undefined;
  /** `ttl` of a task whose requestor asked for none. Default {@link DEFAULT_TASK_TTL_MS} (5 min). */
  defaultTtlMs?: number | undefined;
  /** Longest `ttl` granted; longer requests are capped. Default {@link DEFAULT_MAX_TASK_TTL_MS} (1 h). */
  maxTtlMs?: number | undefined;
  /** `pollInterval` suggested to requestors. Default {@link DEFAULT_TASK_POLL_INTERVAL_MS} (1 s). */
  pollIntervalMs?: number | undefined;
  /** Tasks one requestor may have running (not yet terminal) at once. Default {@link DEFAULT_MAX_TASKS_PER_OWNER} (32). */
  maxTasksPerOwner?: number | undefined;
  /** Tasks per `tasks/list` page. Default {@link DEFAULT_TASK_PAGE_SIZE} (50). */
  pageSize?: number | undefined;
  /**
   * Tasks this receiver holds at once, running or finished (until their `ttl`). At the limit a new
   * task first evicts the oldest finished one ("Receivers are not required to retain tasks
   * indefinitely"); when all are running it is refused with -32600. Default {@link DEFAULT_MAX_TASKS} (10 000).
   */
  maxTasks?: number | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Store failures while a task changes state (the change stands in memory). */
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * How one task-augmented request becomes a task.
 *
 * @example
 * ```ts
 * const start: StartTaskOptions = {
 *   owner: 'session:1',
 *   method: 'tools/call',
 *   ttl: 60_000,
 *   notify: (task) => void peer.notification({ method: 'notifications/tasks/status', params: task }),
 *   failure: (result) => (result['isError'] === true ? { message: 'The tool reported an error' } : undefined),
 * };
 * ```
 */
export interface StartTaskOptions {
  /** The requestor's key (see `StoredTask.owner`). */
  owner: string;
  /** The wrapped request's method. */
  method: string;
  /** The `ttl` the requestor asked for (`params.task.ttl`). */
  ttl?: number | undefined;
  /** Called on every status change (for `notifications/tasks/status`). */
  notify?: ((task: Task) => void) | undefined;
  /**
   * Whether a successful result still means the task failed (tools: `isError: true`), and the
   * `statusMessage` to show for it.
   */
  failure?: ((result: Record<string, unknown>) => { message?: string | undefined } | undefined) | undefined;
}

/**
 * What the four `tasks/*` handlers know about the request they answer (an engine `RequestContext` fits).
 *
 * @example
 * ```ts
 * peer.setRequestHandler('tasks/result', (params, ctx: TaskRequest) =>
 *   receiver.result('peer', String(params['taskId']), ctx),
 * );
 * ```
 */
export interface TaskRequest {
  readonly requestId: RequestId;
  readonly signal: AbortSignal;
}

const NOT_FOUND = 'Failed to retrieve task: Task not found';
// setTimeout's limit; longer ttls expire lazily, on read.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The receiver side of 2025-11-25 tasks, shared by servers (task-augmented `tools/call`) and clients
 * (task-augmented sampling and elicitation): creates tasks with random ids, runs their work in the
 * background, enforces the lifecycle, ownership, `ttl` and per-requestor limits, and answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ maxTtlMs: 600_000 });
 * peer.setRequestHandler('tools/call', async (params, ctx) => {
 *   if (params['task'] === undefined) return runTool(params, ctx.signal);
 *   return tasks.start({ owner: 'peer', method: 'tools/call' }, (run) => runTool(params, run.signal));
 * });
 * for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'])
 *   peer.setRequestHandler(method, (params, ctx) => tasks.handle(method, params, 'peer', ctx));
 * ```
 */
export class TaskReceiver {
  readonly store: TaskStore;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasksPerOwner: number;
  readonly pageSize: number;
  readonly maxTasks: number;
  readonly #now: () => number;
  readonly #onerror: ((error: Error) => void) | undefined;
  readonly #runs = new Map<string, TaskRun>();
  readonly #owned = new Map<string, Set<TaskRun>>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Every task held (running or finished, not yet expired) → its owner, oldest first. */
  readonly #held = new Map<string, string>();

  constructor(options: TaskReceiverOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#onerror = options.onerror;
    this.store = options.store ?? new InMemoryTaskStore({ now: this.#now });
    this.defaultTtlMs = options.defaultTtlMs ?? DEFAULT_TASK_TTL_MS;
    this.maxTtlMs = options.maxTtlMs ?? DEFAULT_MAX_TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS;
    this.maxTasksPerOwner = options.maxTasksPerOwner ?? DEFAULT_MAX_TASKS_PER_OWNER;
    this.pageSize = options.pageSize ?? DEFAULT_TASK_PAGE_SIZE;
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
  }

  /** Tasks of `owner` still running in this process. */
  runningCount(owner: string): number {
    return this.#owned.get(owner)?.size ?? 0;
  }

  /**
   * Accepts a task-augmented request: stores a `working` task and answers with its `CreateTaskResult`
   * at once, while `work` runs in the background. Its result (or thrown `McpError`) becomes what
   * `tasks/result` returns. Rejects with -32600 when the owner already has `maxTasksPerOwner` running.
   */
  async start(
    options: StartTaskOptions,
    work: (run: TaskRun) => Promise<Record<string, unknown>>,
  ): Promise<CreateTaskResult> {
    const owner = options.owner;
    if (this.runningCount(owner) >= this.maxTasksPerOwner) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Too many concurrent tasks: at most ${this.maxTasksPerOwner} may run at once per requestor`,
        { maxTasksPerOwner: this.maxTasksPerOwner },
      );
    }
    if (this.#held.size >= this.maxTasks) await this.#evictFinished();
    const requested = options.ttl;
    const ttl = Math.min(
      requested !== undefined && Number.isFinite(requested) && requested >= 0 ? requested : this.defaultTtlMs,
      this.maxTtlMs,
    );
    const now = this.#now();
    const stamp = new Date(now).toISOString();
    const task: Task = {
      // Unguessable ids (spec "Task Isolation and Access Control": MUST be cryptographically secure).
      taskId: randomUuid(),
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttl,
      pollInterval: this.pollIntervalMs,
    };
    const taskId = task.taskId;
    const store = this.store;
    const notify = options.notify;
    const run = new TaskRun({
      task,
      owner,
      method: options.method,
      hooks: {
        now: this.#now,
        report: (error) => this.#onerror?.(error instanceof Error ? error : new Error(String(error))),
        persist: async (next, outcome) => {
          if (outcome !== undefined) await store.setOutcome(taskId, outcome);
          await store.update(taskId, next);
        },
        notify: (next) => {
          if (isTerminalTaskStatus(next.status)) this.#release(run);
          notify?.(next);
        },
      },
    });
    this.#track(run);
    this.#held.set(taskId, owner);
    try {
      await store.create({ task, owner, method: options.method, expiresAt: now + ttl });
    } catch (error) {
      this.#release(run);
      this.#held.delete(taskId);
      throw error;
    }
    this.#schedule(taskId, ttl);
    void this.#execute(run, work, options.failure);
    return { task };
  }

  /** Answers one of `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` for `owner`. */
  handle(
    method: string,
    params: Record<string, unknown> | undefined,
    owner: string,
    request: TaskRequest,
  ): Promise<Record<string, unknown>> {
    if (method === 'tasks/list') {
      const cursor = params?.['cursor'];
      if (cursor !== undefined && typeof cursor !== 'string') {
        return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid cursor'));
      }
      return this.list(owner, cursor);
    }
    const taskId = params?.['taskId'];
    if (typeof taskId !== 'string') {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, `${method} needs a string taskId`));
    }
    switch (method) {
      case 'tasks/get':
        return this.get(owner, taskId);
      case 'tasks/result':
        return this.result(owner, taskId, request);
      case 'tasks/cancel':
        return this.cancel(owner, taskId);
      default:
        return Promise.reject(new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
    }
  }

  /** `tasks/get`: the task's state (-32602 when unknown, expired or someone else's). */
  async get(owner: string, taskId: string): Promise<Task> {
    const run = this.#runs.get(taskId);
    if (run === undefined || run.owner !== owner) return (await this.#find(owner, taskId)).task;
    // Another process sharing the store may have cancelled it (see `cancel`): stop the work here too.
    await this.#adopt(run);
    return run.task;
  }

  /** Whether task `taskId` runs in this process (not terminal yet). */
  runsHere(taskId: string): boolean {
    const run = this.#runs.get(taskId);
    return run !== undefined && !run.terminal;
  }

  /**
   * Another process sharing the store cancelled task `taskId` (its `tasks/cancel` told every process):
   * when the task runs here, its work stops now rather than at its next status write.
   */
  async adoptCancel(taskId: string, owner: string): Promise<void> {
    const run = this.#runs.get(taskId);
    if (run !== undefined && run.owner === owner) await this.#adopt(run);
  }

  async #adopt(run: TaskRun): Promise<void> {
    if (run.terminal) return;
    const taskId = run.taskId;
    const stored = await this.store.get(taskId);
    if (stored?.task.status !== 'cancelled') return;
    const outcome = (await this.store.getOutcome(taskId)) ?? {
      error: { code: ErrorCode.InvalidRequest, message: `Task ${taskId} was cancelled` },
    };
    await run.cancel(stored.task.statusMessage ?? 'The task was cancelled by request.', outcome);
  }

  /**
   * `tasks/result`: blocks until the task is terminal, then returns exactly what the wrapped request
   * would have (its result with `_meta` related-task, or its JSON-RPC error). While it waits, messages
   * the task needs answered travel with this request.
   */
  async result(owner: string, taskId: string, request: TaskRequest): Promise<Record<string, unknown>> {
    let record = await this.#find(owner, taskId);
    const run = this.#runs.get(taskId);
    if (run !== undefined && !run.terminal) {
      const detach = run.attachStream(request.requestId);
      try {
        await abortable(run.settled, request.signal);
      } finally {
        detach();
      }
      record = await this.#find(owner, taskId);
    }
    while (!isTerminalTaskStatus(record.task.status)) {
      // Running in another process (a shared durable store): wait for it there.
      await delay(this.pollIntervalMs, request.signal);
      record = await this.#find(owner, taskId);
    }
    const outcome = await this.store.getOutcome(taskId);
    if (outcome === undefined) {
      throw new McpError(ErrorCode.InternalError, `The result of task ${taskId} is no longer available`);
    }
    if ('error' in outcome) {
      const { code, message, data } = outcome.error;
      throw new McpError(code, message, data);
    }
    const result = outcome.result;
    const meta = result['_meta'];
    return {
      ...result,
      _meta: {
        ...(typeof meta === 'object' && meta !== null ? meta : undefined),
        [MetaKey.RelatedTask]: { taskId },
      },
    };
  }

  /** `tasks/list`: the owner's tasks, a page at a time (-32602 for a cursor it did not issue). */
  async list(owner: string, cursor: string | undefined): Promise<ListTasksResult> {
    const page = await this.store.list(owner, cursor, this.pageSize);
    if (page === undefined) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    const tasks = page.tasks.map((record) => this.#runs.get(record.task.taskId)?.task ?? record.task);
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /**
   * `tasks/cancel`: -32602 for a terminal task; otherwise the work is aborted and the task is
   * `cancelled` (persisted) before this resolves, and stays so whatever the work does next.
   */
  async cancel(owner: string, taskId: string): Promise<Task> {
    const run = this.#runs.get(taskId);
    const record = run !== undefined && run.owner === owner ? undefined : await this.#find(owner, taskId);
    const status = run?.status ?? record!.task.status;
    if (isTerminalTaskStatus(status)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task: already in terminal status '${status}'`,
      );
    }
    const message = 'The task was cancelled by request.';
    const outcome: TaskOutcome = {
      error: { code: ErrorCode.InvalidRequest, message: `Task ${taskId} was cancelled` },
    };
    if (run !== undefined) {
      await run.cancel(message, outcome);
      return run.task;
    }
    // Started by another process: record the cancellation; that process sees it on its next write.
    const task: Task = {
      ...record!.task,
      status: 'cancelled',
      statusMessage: message,
      lastUpdatedAt: new Date(this.#now()).toISOString(),
    };
    await this.store.setOutcome(taskId, outcome);
    await this.store.update(taskId, task);
    return task;
  }

  /**
   * Stops the running tasks of `owner` and forgets its finished ones (e.g. its session ended and
   * nobody else can reach them).
   */
  dropOwner(owner: string, reason: unknown): void {
    for (const [taskId, holder] of [...this.#held]) {
      if (holder === owner) void this.#expire(taskId, reason);
    }
  }

  /** Makes room for one task by expiring the oldest finished one; -32600 when every task is running. */
  async #evictFinished(): Promise<void> {
    for (const taskId of this.#held.keys()) {
      if (this.#runs.has(taskId)) continue;
      await this.#expire(taskId, undefined);
      return;
    }
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Too many tasks: this receiver holds at most ${this.maxTasks} and all of them are running`,
      { maxTasks: this.maxTasks },
    );
  }

  /** Stops every running task and timer (the receiver is shutting down). */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#held.clear();
    for (const run of [...this.#runs.values()]) {
      this.#release(run);
      run.drop(new McpError(ErrorCode.ConnectionClosed, 'The task receiver closed'));
    }
  }

  async #execute(
    run: TaskRun,
    work: (run: TaskRun) => Promise<Record<string, unknown>>,
    failure: StartTaskOptions['failure'],
  ): Promise<void> {
    try {
      const result = await work(run);
      if (run.terminal || run.signal.aborted) return;
      const failed = failure?.(result);
      if (failed === undefined) await run.transition('completed', undefined, { result });
      else await run.transition('failed', failed.message, { result });
    } catch (error) {
      if (run.terminal || run.signal.aborted) return;
      const wire =
        error instanceof McpError
          ? error.toJSON()
          : {
              code: ErrorCode.InternalError,
              message: error instanceof Error ? error.message : String(error),
            };
      await run.transition('failed', wire.message, { error: wire }).catch(() => undefined);
    }
  }

  async #find(owner: string, taskId: string): Promise<StoredTask> {
    const record = await this.store.get(taskId);
    // Someone else's task looks exactly like a missing one (no existence oracle).
    if (record === undefined || record.owner !== owner || this.#expired(record)) {
      throw new McpError(ErrorCode.InvalidParams, NOT_FOUND);
    }
    return record;
  }

  #expired(record: StoredTask): boolean {
    return record.expiresAt !== undefined && record.expiresAt <= this.#now();
  }

  #track(run: TaskRun): void {
    this.#runs.set(run.taskId, run);
    let owned = this.#owned.get(run.owner);
    if (owned === undefined) {
      owned = new Set();
      this.#owned.set(run.owner, owned);
    }
    owned.add(run);
  }

  #release(run: TaskRun): void {
    if (this.#runs.get(run.taskId) === run) this.#runs.delete(run.taskId);
    const owned = this.#owned.get(run.owner);
    if (owned === undefined) return;
    owned.delete(run);
    if (owned.size === 0) this.#owned.delete(run.owner);
  }

  #schedule(taskId: string, ttl: number): void {
    if (ttl > MAX_TIMER_MS) return;
    const timer = setTimeout(() => {
      void this.#expire(
        taskId,
        new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task has expired'),
      );
    }, ttl);
    // Never keep a process alive just to forget a task (Node/Bun timers have unref, browsers do not).
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(taskId, timer);
  }

  /** After `ttl` the task and its result are deleted, whatever its status (spec "TTL and Resource Management"). */
  async #expire(taskId: string, reason: unknown): Promise<void> {
    const timer = this.#timers.get(taskId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(taskId);
    this.#held.delete(taskId);
    const run = this.#runs.get(taskId);
    if (run !== undefined) {
      this.#release(run);
      run.drop(reason);
    }
    try {
      await this.store.delete(taskId);
    } catch {
      // The store expires records on its own as well.
    }
  }
}

function abortable(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
