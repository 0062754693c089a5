import { randomBytes } from 'node:crypto';
import { DEFAULT_TASK_POLL_INTERVAL_MS, type RequestId, type Result, type Task } from '@x/protocol/core';
import { type CreateTaskOptions, isTerminal, type Request, type TaskStore } from './task-store.js';

/** The key of a compat store's "tell me when this task settles" hook (not exported by any entry). */
export const SETTLED: unique symbol = Symbol('@x/compat task settled');

interface StoredTask {
  task: Task;
  request: Request;
  requestId: RequestId;
  sessionId: string | undefined;
  result?: Result;
}

const PAGE_SIZE = 10;

/**
 * The official 1.x `InMemoryTaskStore`: tasks of one process, deleted `ttl` ms after creation (and
 * again after they settle), scoped to the session that made them, listed 10 to a page.
 *
 * @example
 * ```ts
 * const taskStore = new InMemoryTaskStore();
 * const server = new McpServer(info, { taskStore, capabilities: { tasks: { requests: { tools: { call: {} } } } } });
 * ```
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, StoredTask>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #settled = new Map<string, Array<() => void>>();

  async createTask(
    taskParams: CreateTaskOptions,
    requestId: RequestId,
    request: Request,
    sessionId?: string,
  ): Promise<Task> {
    const taskId = randomBytes(16).toString('hex');
    const createdAt = new Date().toISOString();
    const ttl = taskParams.ttl ?? null;
    const task: Task = {
      taskId,
      status: 'working',
      ttl,
      createdAt,
      lastUpdatedAt: createdAt,
      pollInterval: taskParams.pollInterval ?? DEFAULT_TASK_POLL_INTERVAL_MS,
    };
    this.#tasks.set(taskId, { task, request, requestId, sessionId });
    this.#expireLater(taskId, ttl);
    return task;
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const stored = this.#lookup(taskId, sessionId);
    return stored === undefined ? null : { ...stored.task };
  }

  async storeTaskResult(
    taskId: string,
    status: 'completed' | 'failed',
    result: Result,
    sessionId?: string,
  ): Promise<void> {
    const stored = this.#found(taskId, sessionId);
    if (isTerminal(stored.task.status))
      throw new Error(
        `Cannot store result for task ${taskId} in terminal status '${stored.task.status}'. Task results can only be stored once.`,
      );
    stored.result = result;
    this.#settle(stored, status);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const stored = this.#found(taskId, sessionId);
    if (stored.result === undefined) throw new Error(`Task ${taskId} has no result stored`);
    return stored.result;
  }

  async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    const stored = this.#found(taskId, sessionId);
    if (isTerminal(stored.task.status))
      throw new Error(
        `Cannot update task ${taskId} from terminal status '${stored.task.status}' to '${status}'. Terminal states (completed, failed, cancelled) cannot transition to other states.`,
      );
    if (statusMessage) stored.task.statusMessage = statusMessage;
    if (isTerminal(status)) this.#settle(stored, status);
    else {
      stored.task.status = status;
      stored.task.lastUpdatedAt = new Date().toISOString();
    }
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const ids = [...this.#tasks.keys()].filter((id) => this.#lookup(id, sessionId) !== undefined);
    let start = 0;
    if (cursor) {
      const at = ids.indexOf(cursor);
      if (at < 0) throw new Error(`Invalid cursor: ${cursor}`);
      start = at + 1;
    }
    const page = ids.slice(start, start + PAGE_SIZE);
    const tasks = page.map((id) => ({ ...this.#tasks.get(id)!.task }));
    const last = page.at(-1);
    return start + PAGE_SIZE < ids.length && last !== undefined ? { tasks, nextCursor: last } : { tasks };
  }

  /** Stops every expiry timer and forgets every task. */
  cleanup(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#tasks.clear();
  }

  /** Every task, for tests and debugging. */
  getAllTasks(): Task[] {
    return [...this.#tasks.values()].map((stored) => ({ ...stored.task }));
  }

  /** Resolves once the task is terminal or gone: how a compat task tool waits without polling. */
  [SETTLED](taskId: string): Promise<void> {
    const stored = this.#tasks.get(taskId);
    if (stored === undefined || isTerminal(stored.task.status)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.#settled.get(taskId) ?? [];
      waiters.push(resolve);
      this.#settled.set(taskId, waiters);
    });
  }

  #settle(stored: StoredTask, status: Task['status']): void {
    stored.task.status = status;
    stored.task.lastUpdatedAt = new Date().toISOString();
    this.#expireLater(stored.task.taskId, stored.task.ttl ?? null);
    const waiters = this.#settled.get(stored.task.taskId);
    this.#settled.delete(stored.task.taskId);
    for (const resolve of waiters ?? []) resolve();
  }

  #expireLater(taskId: string, ttl: number | null): void {
    if (!ttl) return;
    clearTimeout(this.#timers.get(taskId));
    const timer = setTimeout(() => {
      this.#tasks.delete(taskId);
      this.#timers.delete(taskId);
      const waiters = this.#settled.get(taskId);
      this.#settled.delete(taskId);
      for (const resolve of waiters ?? []) resolve();
    }, ttl);
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(taskId, timer);
  }

  #lookup(taskId: string, sessionId: string | undefined): StoredTask | undefined {
    const stored = this.#tasks.get(taskId);
    if (stored?.sessionId !== undefined && sessionId !== undefined && stored.sessionId !== sessionId)
      return undefined;
    return stored;
  }

  #found(taskId: string, sessionId: string | undefined): StoredTask {
    const stored = this.#lookup(taskId, sessionId);
    if (stored === undefined) throw new Error(`Task with ID ${taskId} not found`);
    return stored;
  }
}
