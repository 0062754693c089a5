import {
  type CallToolRequestParams,
  type CallToolResult,
  type CancelTaskResult,
  type CreateTaskResult,
  ErrorCode,
  fromDetailedTask,
  type GetTaskResult,
  type ListTasksResult,
  McpError,
  isTerminalTaskStatus,
  type PaginatedRequestParams,
  type ProgressCallback,
  type ProgressNotificationParams,
  type ProgressToken,
  type Task,
  type TaskStatusNotificationParams,
} from '@x/protocol/core';
import {
  DeferredCallToolResultSchema,
  DeferredCreateTaskResultSchema,
  formatIssues,
  pollTask,
  safeParseDeferred,
} from '@x/protocol/internal';
import type { ClientRequestOptions } from '../client-options.js';
import type { EraSession } from '../era-session.js';
import {
  followTask,
  getDetailedTask,
  parseTask,
  type TaskAwareOptions,
  taskRequest,
} from '../modern/extension-task-driver.js';
import { ModernSession } from '../modern/modern-session.js';
import { paginate } from '../paginate.js';
import { LegacySession } from './legacy-session.js';
import type { ToolRegistry } from '../tool-registry.js';

/**
 * Options of `client.callToolAsTask()`: the request options plus the task's requested lifetime.
 *
 * @example
 * ```ts
 * const { task } = await client.callToolAsTask(
 *   { name: 'render', arguments: { scene: 'intro' } },
 *   { ttl: 10 * 60_000, timeout: 30_000 },
 * );
 * ```
 */
export interface TaskCallOptions extends ClientRequestOptions {
  /** Requested `ttl` in ms (`params.task.ttl`); the server may grant less. Default: the server's. */
  ttl?: number | undefined;
}

/**
 * Options of `client.callToolInTask()`.
 *
 * @example
 * ```ts
 * const result = await client.callToolInTask(
 *   { name: 'render', arguments: {} },
 *   { ttl: 600_000, signal: AbortSignal.timeout(900_000), onstatus: (task) => console.log(task.status) },
 * );
 * ```
 */
export interface TaskRunOptions extends TaskCallOptions {
  /** Every task state seen while polling (the `CreateTaskResult`'s first). */
  onstatus?: ((task: Task) => void) | undefined;
  /** Poll interval when the server suggests none. Default 1 000 ms. */
  defaultPollIntervalMs?: number | undefined;
}

const MAX_REMEMBERED = 1_024;
/** Prefix of the progress tokens of task-augmented calls (what the engine reports as unknown tokens). */
const PROGRESS_PREFIX = 'x-mcp-task:';

/**
 * The requestor side of 2025-11-25 tasks for `tools/call` (spec basic/utilities/tasks): creating a
 * task, polling it, fetching its result (validated like `callTool`'s), listing and cancelling tasks.
 * Legacy only: 2026-07-28 has no `tasks/*` methods (the engine refuses them there).
 */
export class TaskRequestor {
  readonly #session: () => EraSession;
  readonly #tools: ToolRegistry;
  readonly #listTools: () => Promise<unknown>;
  readonly #maxPages: number;
  /** taskId → tool name, for checking `structuredContent` of the task's result. */
  readonly #origins = new Map<string, string>();
  /**
   * Progress of task-augmented calls: "The progressToken provided in the initial request remains valid
   * throughout the task lifetime", longer than the engine tracks the `tools/call` it came with.
   */
  readonly #progress = new Map<string, ProgressCallback>();
  readonly #progressTokens = new Map<string, string>();

  constructor(options: {
    session: () => EraSession;
    tools: ToolRegistry;
    listTools: () => Promise<unknown>;
    maxPages: number;
  }) {
    this.#session = options.session;
    this.#tools = options.tools;
    this.#listTools = options.listTools;
    this.#maxPages = options.maxPages;
  }

  async callToolAsTask(
    params: CallToolRequestParams,
    options: TaskCallOptions = {},
  ): Promise<CreateTaskResult> {
    const session = this.#session();
    if (session instanceof ModernSession) return this.#createModern(session, params, options);
    // "If a server's capabilities do not include tasks.requests.tools.call, then clients MUST NOT
    // attempt to use task augmentation on that server's tools"
    if (
      !(session instanceof LegacySession) ||
      session.serverCapabilities.tasks?.requests?.tools?.call === undefined
    ) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server does not support task-augmented tools/call (no tasks.requests.tools.call capability on ${session.protocolVersion})`,
      );
    }
    const name = params.name;
    let support = this.#tools.taskSupport(name);
    if (support === undefined) {
      await this.#listTools();
      support = this.#tools.taskSupport(name);
    }
    if (support === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}": the server does not list it`);
    }
    // "If execution.taskSupport is not present or "forbidden", clients MUST NOT attempt to invoke the tool as a task."
    if (support === 'forbidden') {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Tool "${name}" does not support task-augmented calls (execution.taskSupport is absent or "forbidden")`,
      );
    }
    const { ttl, fresh: _fresh, onprogress, ...requestOptions } = options;
    const task = ttl === undefined ? {} : { ttl };
    let token: string | undefined;
    let wire: Record<string, unknown> = { ...params, task };
    if (onprogress !== undefined) {
      token = `${PROGRESS_PREFIX}${globalThis.crypto.randomUUID()}`;
      wire = { ...wire, _meta: { ...params._meta, progressToken: token } };
      this.#progress.set(token, onprogress);
    }
    let result: CreateTaskResult;
    try {
      // Through the session, so a call made while the handshake re-runs after a reconnect waits for it.
      result = await session.requestAs<CreateTaskResult>(
        'tools/call',
        wire,
        DeferredCreateTaskResultSchema,
        requestOptions,
      );
    } catch (error) {
      if (token !== undefined) this.#progress.delete(token);
      throw error;
    }
    const taskId = result.task.taskId;
    this.#remember(this.#origins, taskId, name);
    if (token !== undefined) {
      if (isTerminalTaskStatus(result.task.status)) this.#progress.delete(token);
      else this.#remember(this.#progressTokens, taskId, token);
    }
    return result;
  }

  /** Routes one `notifications/progress` to a task's `onprogress`; false when it is not a task's. */
  progress(params: ProgressNotificationParams): boolean {
    const token = params.progressToken;
    const listener = typeof token === 'string' ? this.#progress.get(token) : undefined;
    listener?.(params);
    return listener !== undefined;
  }

  /** Whether `token` belongs to a task-augmented call (its progress outlives the request the engine tracked). */
  ownsProgressToken(token: ProgressToken): boolean {
    return typeof token === 'string' && token.startsWith(PROGRESS_PREFIX);
  }

  /** A task's status notification: a terminal task's progress token is done. */
  status(params: TaskStatusNotificationParams): void {
    if (isTerminalTaskStatus(params.status)) this.#ended(params.taskId);
  }

  async getTask(taskId: string, options?: ClientRequestOptions): Promise<GetTaskResult> {
    const session = this.#session();
    if (session instanceof ModernSession) {
      const wire = await getDetailedTask(session.roundTrips, taskId, options);
      // Both shapes at once: the 2025-11-25 names (ttl, pollInterval) and the 2026 payload fields.
      return { ...wire, ...fromDetailedTask(wire) } as GetTaskResult;
    }
    const task = await session.request('tasks/get', { taskId }, options);
    if (isTerminalTaskStatus(task.status)) this.#ended(taskId);
    return task;
  }

  async getTaskResult(taskId: string, options?: ClientRequestOptions): Promise<CallToolResult> {
    const session = this.#session();
    // 2026-07-28 has no tasks/result: the result is inlined in tasks/get once the task is terminal.
    const pending =
      session instanceof ModernSession
        ? getDetailedTask(session.roundTrips, taskId, options).then((task) =>
            followTask(session.roundTrips, task, options),
          )
        : session.request('tasks/result', { taskId }, options);
    // tasks/result answers (result or error) only once the task is terminal.
    const raw = await pending.finally(() => {
      if (options?.signal?.aborted !== true) this.#ended(taskId);
    });
    const parsed = await safeParseDeferred(DeferredCallToolResultSchema, raw);
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InternalError,
        `Invalid tasks/result for task ${taskId}: ${formatIssues(parsed.error)}`,
      );
    }
    const name = this.#origins.get(taskId);
    if (name !== undefined) await this.#tools.check(name, parsed.data);
    return parsed.data;
  }

  listTasks(
    params: PaginatedRequestParams | undefined,
    options?: ClientRequestOptions,
  ): Promise<ListTasksResult> {
    return this.#session().request('tasks/list', params, options);
  }

  iterateTasks(options?: ClientRequestOptions): AsyncGenerator<Task, void, undefined> {
    return paginate(async (cursor) => {
      const page = await this.listTasks(cursor === undefined ? undefined : { cursor }, options);
      return { items: page.tasks, nextCursor: page.nextCursor };
    }, this.#maxPages);
  }

  async cancelTask(taskId: string, options?: ClientRequestOptions): Promise<CancelTaskResult> {
    const session = this.#session();
    if (session instanceof ModernSession) {
      // SEP-2663: an ack only; the state after it comes from tasks/get (one API for both eras).
      await taskRequest(session.roundTrips, 'tasks/cancel', { taskId }, options);
      this.#ended(taskId);
      return this.getTask(taskId, options);
    }
    const task = await session.request('tasks/cancel', { taskId }, options);
    this.#ended(taskId);
    return task;
  }

  /**
   * Creates the task, polls `tasks/get` every `pollInterval`, calls `tasks/result` on `input_required`
   * or a terminal status (spec "Getting Tasks"), and resolves with the tool's result. Aborting
   * `signal` stops waiting and cancels the task (best effort).
   */
  async callToolInTask(params: CallToolRequestParams, options: TaskRunOptions = {}): Promise<CallToolResult> {
    const session = this.#session();
    if (session instanceof ModernSession) {
      // The server decides (SEP-2663): a plain result comes back as it is, a task handle is followed.
      const { ttl: _ttl, fresh: _fresh, ...rest } = options;
      const result = (await session.request(
        'tools/call',
        params,
        rest as TaskAwareOptions,
      )) as CallToolResult;
      await this.#tools.check(params.name, result);
      return result;
    }
    const { onstatus, defaultPollIntervalMs, ...callOptions } = options;
    const { task } = await this.callToolAsTask(params, callOptions);
    const signal = options.signal;
    const peer = {
      getTask: (taskId: string, s: AbortSignal | undefined) =>
        this.getTask(taskId, s === undefined ? undefined : { signal: s }),
      // tasks/result blocks until the task ends, which the task's ttl bounds, not a request timeout.
      getTaskResult: (taskId: string, s: AbortSignal | undefined) =>
        this.getTaskResult(taskId, {
          signal: s,
          timeout: options.timeout ?? Number.POSITIVE_INFINITY,
          maxTotalTimeout: options.maxTotalTimeout ?? Number.POSITIVE_INFINITY,
        }),
    };
    try {
      return await pollTask(peer, task, { signal, onstatus, defaultPollIntervalMs });
    } catch (error) {
      if (signal?.aborted === true) void this.cancelTask(task.taskId).catch(() => undefined);
      throw error;
    }
  }

  /** 2026-07-28: the server decides; a plain answer here means it did not create a task. */
  async #createModern(
    session: ModernSession,
    params: CallToolRequestParams,
    options: TaskCallOptions,
  ): Promise<CreateTaskResult> {
    const { ttl: _ttl, fresh: _fresh, ...rest } = options;
    const answer = (await session.request('tools/call', params, {
      ...rest,
      keepTaskHandle: true,
    } as TaskAwareOptions)) as Record<string, unknown>;
    if (answer['resultType'] !== 'task') {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server answered ${params.name} without creating a task (on 2026-07-28 the server decides; use callToolInTask to take either)`,
        { result: answer },
      );
    }
    const task = await parseTask(answer, 'tools/call');
    this.#remember(this.#origins, task.taskId, params.name);
    return { task: fromDetailedTask(task) };
  }

  #ended(taskId: string): void {
    const token = this.#progressTokens.get(taskId);
    if (token === undefined) return;
    this.#progressTokens.delete(taskId);
    this.#progress.delete(token);
  }

  /** Bounded memory: the oldest entries go first (a task nobody polls any more). */
  #remember(map: Map<string, string>, key: string, value: string): void {
    map.set(key, value);
    if (map.size <= MAX_REMEMBERED) return;
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    if (map === this.#progressTokens) this.#progress.delete(map.get(oldest)!);
    map.delete(oldest);
  }
}
