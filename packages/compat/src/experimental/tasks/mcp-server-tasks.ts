import {
  type CallToolResult,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  type Result,
  type Task,
  type ToolExecution,
} from '@x/protocol/core';
import type { RegisteredTool, SchemaInput, ServerContext } from '@x/server';
import { type RequestHandlerExtra, toRequestExtra } from '../../shared/request-handler-extra.js';
import { SETTLED } from './in-memory-task-store.js';
import { isTerminal, type Request, type RequestTaskStore, type TaskStore } from './task-store.js';

/**
 * `extra` of a 1.x `createTask` callback: the request's `extra` plus the bound `taskStore`.
 *
 * @example
 * ```ts
 * createTask: async (args, extra: CreateTaskRequestHandlerExtra) => ({ task: await extra.taskStore.createTask({ ttl: 60_000 }) }),
 * ```
 */
export interface CreateTaskRequestHandlerExtra extends RequestHandlerExtra {
  taskStore: RequestTaskStore;
}

/**
 * `extra` of a 1.x `getTask`/`getTaskResult` callback: also the task's id.
 *
 * @example
 * ```ts
 * getTaskResult: (_args, extra: TaskRequestHandlerExtra) => extra.taskStore.getTaskResult(extra.taskId),
 * ```
 */
export interface TaskRequestHandlerExtra extends CreateTaskRequestHandlerExtra {
  taskId: string;
}

/**
 * What a 1.x `createTask` callback returns.
 *
 * @example
 * ```ts
 * const created: CreateTaskResult = { task: await extra.taskStore.createTask({}) };
 * ```
 */
export interface CreateTaskResult extends Result {
  task: Task;
}

/**
 * The three callbacks of a 1.x task tool (see `registerToolTask`'s example). `never[]` parameters: the arguments' type comes from the
 * user's schema; with no `inputSchema` a callback takes `(extra)` only, as in 1.x.
 */
export interface ToolTaskHandler {
  createTask: (...args: never[]) => CreateTaskResult | Promise<CreateTaskResult>;
  getTask: (...args: never[]) => Task | Promise<Task>;
  getTaskResult: (...args: never[]) => CallToolResult | Promise<CallToolResult>;
}

/**
 * `registerToolTask`'s config: a tool's, whose `execution.taskSupport` is `optional` or `required`.
 *
 * @example
 * ```ts
 * const config: TaskToolConfig = { inputSchema: { topic: z.string() }, execution: { taskSupport: 'optional' } };
 * ```
 */
export interface TaskToolConfig {
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: SchemaInput | undefined;
  outputSchema?: SchemaInput | undefined;
  annotations?: Record<string, unknown> | undefined;
  execution?: ToolExecution | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** How `ExperimentalMcpServerTasks` reaches its `McpServer` (not public API). */
export interface TaskToolHost {
  readonly taskStore: TaskStore | undefined;
  registerTaskTool(
    name: string,
    config: TaskToolConfig,
    handler: (args: unknown, ctx: ServerContext) => Promise<CallToolResult>,
  ): RegisteredTool;
}

/**
 * `mcpServer.experimental.tasks` of the official 1.x SDK: `registerToolTask(name, config, handler)`.
 * On x-mcp's tasks: x-mcp's task receiver answers `tasks/get|result|list|cancel` and runs the call;
 * the call runs the 1.x `createTask`, waits until the 1.x store says the task settled and returns what
 * `getTaskResult` gives. A call without `task` (taskSupport `optional`) waits the same way, as in 1.x.
 *
 * @example
 * ```ts
 * server.experimental.tasks.registerToolTask('research', { inputSchema: { topic: z.string() }, execution: { taskSupport: 'required' } }, {
 *   createTask: async ({ topic }, extra) => {
 *     const task = await extra.taskStore.createTask({ ttl: 60_000 });
 *     void research(topic).then((result) => extra.taskStore.storeTaskResult(task.taskId, 'completed', result));
 *     return { task };
 *   },
 *   getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
 *   getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
 * });
 * ```
 */
export class ExperimentalMcpServerTasks {
  readonly #host: TaskToolHost;

  constructor(host: TaskToolHost) {
    this.#host = host;
  }

  /** Registers a tool whose calls run as tasks of the server's `taskStore`. */
  registerToolTask(name: string, config: TaskToolConfig, handler: ToolTaskHandler): RegisteredTool {
    const store = this.#host.taskStore;
    if (store === undefined)
      throw new Error(`registerToolTask('${name}'): pass a taskStore to the McpServer options`);
    const execution = config.execution ?? { taskSupport: 'required' };
    if (execution.taskSupport === 'forbidden')
      throw new Error(
        `Cannot register task-based tool '${name}' with taskSupport 'forbidden'. Use registerTool() instead.`,
      );
    const withArgs = config.inputSchema !== undefined;
    return this.#host.registerTaskTool(name, { ...config, execution }, async (args, ctx) => {
      const extra = toRequestExtra(ctx);
      const request: Request = {
        method: 'tools/call',
        params: { name, arguments: args as Record<string, unknown> },
      };
      const taskStore = bind(store, extra, request);
      const call = <R>(callback: (...args: never[]) => R, callExtra: object): R =>
        (callback as (...args: unknown[]) => R)(...(withArgs ? [args, callExtra] : [callExtra]));
      const { task } = await call(handler.createTask, { ...extra, taskStore });
      await settled(store, task.taskId, extra.sessionId, ctx.signal);
      if (ctx.signal.aborted) {
        await store.updateTaskStatus(task.taskId, 'cancelled', undefined, extra.sessionId).catch(() => {});
        throw ctx.signal.reason;
      }
      return call(handler.getTaskResult, { ...extra, taskId: task.taskId, taskStore });
    });
  }
}

/** `extra.taskStore`: the store bound to one request, as 1.x hands it to task callbacks. */
function bind(store: TaskStore, extra: RequestHandlerExtra, request: Request): RequestTaskStore {
  const session = extra.sessionId;
  return {
    createTask: (params) => store.createTask(params, extra.requestId, request, session),
    getTask: async (taskId) => {
      const task = await store.getTask(taskId, session);
      if (task === null) throw new Error(`Task not found: ${taskId}`);
      return task;
    },
    storeTaskResult: (taskId, status, result) => store.storeTaskResult(taskId, status, result, session),
    getTaskResult: (taskId) => store.getTaskResult(taskId, session),
    updateTaskStatus: (taskId, status, message) => store.updateTaskStatus(taskId, status, message, session),
    listTasks: (cursor) => store.listTasks(cursor, session),
  };
}

/**
 * Resolves once the 1.x store holds the task as terminal (or no more), or `signal` aborts: at once
 * through the compat `InMemoryTaskStore`'s hook, by polling at the task's `pollInterval` on another
 * store.
 */
async function settled(
  store: TaskStore,
  taskId: string,
  sessionId: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const aborted = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  if (SETTLED in store) {
    await Promise.race([(store as { [SETTLED](id: string): Promise<void> })[SETTLED](taskId), aborted]);
    return;
  }
  while (!signal.aborted) {
    const task = await store.getTask(taskId, sessionId);
    if (task === null || isTerminal(task.status)) return;
    await Promise.race([
      new Promise((resolve) => setTimeout(resolve, task.pollInterval ?? DEFAULT_TASK_POLL_INTERVAL_MS)),
      aborted,
    ]);
  }
}
