import type { InputRequests, Task } from '../schemas/index.js';

/**
 * One task as a `TaskStore` keeps it: the wire state plus what the receiver needs to guard it.
 *
 * @example
 * ```ts
 * const record: StoredTask = {
 *   task: {
 *     taskId: crypto.randomUUID(),
 *     status: 'working',
 *     createdAt: new Date().toISOString(),
 *     lastUpdatedAt: new Date().toISOString(),
 *     ttl: 60_000,
 *     pollInterval: 1_000,
 *   },
 *   owner: 'session:4f1c…',
 *   method: 'tools/call',
 *   expiresAt: Date.now() + 60_000,
 * };
 * ```
 */
export interface StoredTask {
  /** The state `tasks/get` returns. */
  task: Task;
  /**
   * Whose task it is (spec 2025-11-25 basic/utilities/tasks, "Task Isolation and Access Control"): an
   * opaque key derived from the requestor's authorization context or, without one, its session.
   */
  owner: string;
  /** The method of the request the task wraps (e.g. `tools/call`). */
  method: string;
  /** When the task may be deleted (ms since the epoch); undefined for an unlimited `ttl`. */
  expiresAt: number | undefined;
}

/**
 * What the wrapped request produced: `tasks/result` returns exactly this (spec 2025-11-25
 * basic/utilities/tasks, "Result Retrieval"), a result object or the JSON-RPC error.
 *
 * @example
 * ```ts
 * const done: TaskOutcome = { result: { content: [{ type: 'text', text: 'ok' }] } };
 * const broken: TaskOutcome = { error: { code: -32603, message: 'upstream API down' } };
 * ```
 */
export type TaskOutcome =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } };

/**
 * One page of `TaskStore.list`; `undefined` from `list` means the cursor was invalid.
 *
 * @example
 * ```ts
 * const page: TaskPage = { tasks: [record], nextCursor: 'opaque' };
 * ```
 */
export interface TaskPage {
  tasks: StoredTask[];
  nextCursor?: string | undefined;
}

/**
 * Where a `TaskReceiver` keeps tasks and their outcomes. The in-memory default (`InMemoryTaskStore`)
 * serves one process; a durable store (a database, Redis) lets tasks outlive it. Status transitions
 * are validated by the receiver before they reach the store, and expired tasks are deleted through
 * `delete`; a store may also expire records on its own once `expiresAt` has passed.
 *
 * @example
 * ```ts
 * class LoggingStore implements TaskStore {
 *   readonly #inner = new InMemoryTaskStore();
 *   create(record: StoredTask) {
 *     console.log('task created', record.task.taskId, 'for', record.owner);
 *     return this.#inner.create(record);
 *   }
 *   get(taskId: string) { return this.#inner.get(taskId); }
 *   update(taskId: string, task: Task) { return this.#inner.update(taskId, task); }
 *   setOutcome(taskId: string, outcome: TaskOutcome) { return this.#inner.setOutcome(taskId, outcome); }
 *   getOutcome(taskId: string) { return this.#inner.getOutcome(taskId); }
 *   list(owner: string, cursor: string | undefined, limit: number) { return this.#inner.list(owner, cursor, limit); }
 *   delete(taskId: string) { return this.#inner.delete(taskId); }
 * }
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { tasks: { store: new LoggingStore() } });
 * ```
 */
export interface TaskStore {
  create(record: StoredTask): Promise<void>;
  get(taskId: string): Promise<StoredTask | undefined>;
  /** Replaces the task's state; false when the task is gone. */
  update(taskId: string, task: Task): Promise<boolean>;
  setOutcome(taskId: string, outcome: TaskOutcome): Promise<void>;
  getOutcome(taskId: string): Promise<TaskOutcome | undefined>;
  /** The owner's tasks, oldest first, `limit` per page; `undefined` for a cursor it did not issue. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined>;
  delete(taskId: string): Promise<void>;
  /**
   * Keeps the outstanding `inputRequests` of an `input_required` 2026-07-28 task (SEP-2663 "Task
   * Update Requests"), `undefined` to clear them; ignored when the task is gone. Optional: with it,
   * `tasks/get` on every process sharing the store shows them, also a process started after the task
   * asked; without it, other processes know them only from the fan-out's status messages.
   */
  setInputRequests?(taskId: string, inputRequests: InputRequests | undefined): Promise<void>;
  /** What `setInputRequests` kept for the task; `undefined` when none (or the task is gone). */
  getInputRequests?(taskId: string): Promise<InputRequests | undefined>;
}
