import type { RequestId } from '../jsonrpc.js';
import type { Task, TaskStatus } from '../schemas/index.js';
import { canTransition, isTerminalTaskStatus } from './task-status.js';
import type { TaskOutcome } from './task-store.js';

/**
 * Sends one task-related message; `relatedRequestId` is the open `tasks/result` request it travels
 * with (undefined when none is open and the message may go out on its own).
 *
 * @example
 * ```ts
 * const deliver: TaskDelivery = (relatedRequestId) =>
 *   void peer.notification(
 *     { method: 'notifications/message', params: withRelatedTask({ level: 'info', data: 'step 2' }, run.taskId) },
 *     { relatedRequestId },
 *   );
 * deliver(run.stream);
 * ```
 */
export type TaskDelivery = (relatedRequestId: RequestId | undefined) => void;

/** What a run tells its receiver: persist the new state, tell the requestor. */
export interface TaskRunHooks {
  persist(task: Task, outcome: TaskOutcome | undefined): Promise<void>;
  notify(task: Task): void;
  now(): number;
  /** A state could not be persisted (the store failed). */
  report(error: unknown): void;
}

/**
 * The in-process side of one task that is still running: its state machine, the signal its work
 * observes, and the messages it waits to deliver. Messages the requestor must answer (elicitation,
 * sampling) travel with an open `tasks/result` request (spec 2025-11-25 basic/utilities/tasks, "Input
 * Required Status"), so a run queues them until the requestor opens one, and the task shows
 * `input_required` while any is unanswered.
 *
 * @example
 * ```ts
 * // Inside a receiver's work function: ask the requestor something on behalf of the task.
 * const answer = await run.input((relatedRequestId) =>
 *   peer.request({ method: 'elicitation/create', params: withRelatedTask(params, run.taskId) }, ElicitResultSchema, {
 *     relatedRequestId,
 *     signal: run.signal,
 *   }),
 * );
 * ```
 */
export class TaskRun {
  readonly taskId: string;
  readonly owner: string;
  readonly method: string;
  #task: Task;
  readonly #controller = new AbortController();
  readonly #hooks: TaskRunHooks;
  #inputs = 0;
  readonly #queue: TaskDelivery[] = [];
  readonly #streams: RequestId[] = [];
  #writes: Promise<void> = Promise.resolve();
  readonly #settled: Promise<void>;
  #settle!: () => void;

  constructor(options: { task: Task; owner: string; method: string; hooks: TaskRunHooks }) {
    this.taskId = options.task.taskId;
    this.owner = options.owner;
    this.method = options.method;
    this.#task = options.task;
    this.#hooks = options.hooks;
    this.#settled = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  /** The current state, as `tasks/get` reports it. */
  get task(): Task {
    return this.#task;
  }

  get status(): TaskStatus {
    return this.#task.status;
  }

  get terminal(): boolean {
    return isTerminalTaskStatus(this.#task.status);
  }

  /** Aborted when the task is cancelled, expires or its requestor's session ends. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Resolves once the task is terminal (or gone) and its state is persisted. */
  get settled(): Promise<void> {
    return this.#settled;
  }

  /** The newest open `tasks/result` request of this task, if any. */
  get stream(): RequestId | undefined {
    return this.#streams.at(-1);
  }

  /**
   * Registers an open `tasks/result` request: queued messages go out with it now, later ones too while
   * it stays open. Returns the function that unregisters it.
   */
  attachStream(requestId: RequestId): () => void {
    this.#streams.push(requestId);
    const queued = this.#queue.splice(0);
    for (const deliver of queued) deliver(requestId);
    return () => {
      const index = this.#streams.lastIndexOf(requestId);
      if (index >= 0) this.#streams.splice(index, 1);
    };
  }

  /**
   * Sends a message the requestor must answer, through an open `tasks/result` (queued until one is
   * open), with the task in `input_required` until every such message has been answered.
   */
  async input<T>(send: (relatedRequestId: RequestId | undefined) => Promise<T>): Promise<T> {
    this.signal.throwIfAborted();
    this.#inputs++;
    if (this.#inputs === 1) void this.transition('input_required');
    try {
      const relatedRequestId = await this.#slot();
      return await send(relatedRequestId);
    } finally {
      this.#inputs--;
      if (this.#inputs === 0 && this.status === 'input_required') void this.transition('working');
    }
  }

  /** Moves to `status` when the lifecycle allows it; resolves once the new state is persisted. */
  transition(status: TaskStatus, statusMessage?: string, outcome?: TaskOutcome): Promise<void> {
    if (!canTransition(this.#task.status, status)) return this.#writes;
    const task: Task = { ...this.#task, status, lastUpdatedAt: new Date(this.#hooks.now()).toISOString() };
    if (statusMessage === undefined) delete task.statusMessage;
    else task.statusMessage = statusMessage;
    this.#task = task;
    const hooks = this.#hooks;
    const write = this.#writes.then(() => hooks.persist(task, outcome));
    this.#writes = write.then(
      () => hooks.notify(task),
      (error: unknown) => {
        hooks.report(error);
        hooks.notify(task);
      },
    );
    if (isTerminalTaskStatus(status)) {
      this.#endWork();
      void this.#writes.then(this.#settle);
    }
    return this.#writes;
  }

  /**
   * Changes the task's `statusMessage` without changing its status (progress a handler reports, shown by
   * `tasks/get` and status notifications); ignored once the task is terminal.
   */
  setStatusMessage(statusMessage: string): Promise<void> {
    if (this.terminal || this.#task.statusMessage === statusMessage) return this.#writes;
    const task: Task = {
      ...this.#task,
      statusMessage,
      lastUpdatedAt: new Date(this.#hooks.now()).toISOString(),
    };
    this.#task = task;
    const hooks = this.#hooks;
    const write = this.#writes.then(() => hooks.persist(task, undefined));
    this.#writes = write.then(
      () => hooks.notify(task),
      (error: unknown) => hooks.report(error),
    );
    return this.#writes;
  }

  /** Cancels: stops the work (best effort) and moves to `cancelled` at once. */
  cancel(statusMessage: string, outcome: TaskOutcome): Promise<void> {
    const done = this.transition('cancelled', statusMessage, outcome);
    this.#controller.abort(new DOMException(statusMessage, 'AbortError'));
    return done;
  }

  /** The task is gone (expired, or its requestor went away for good): stop the work, wake waiters. */
  drop(reason: unknown): void {
    this.#controller.abort(reason);
    this.#settle();
  }

  #slot(): Promise<RequestId | undefined> {
    const stream = this.stream;
    if (stream !== undefined) return Promise.resolve(stream);
    return new Promise((resolve, reject) => {
      const signal = this.signal;
      const deliver: TaskDelivery = (relatedRequestId) => {
        signal.removeEventListener('abort', onAbort);
        resolve(relatedRequestId);
      };
      const onAbort = (): void => {
        const index = this.#queue.indexOf(deliver);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(deliver);
    });
  }

  /** A terminal task needs no more input: work still running and messages still queued are abandoned. */
  #endWork(): void {
    if (!this.signal.aborted) this.#controller.abort(new DOMException('The task has ended', 'AbortError'));
  }
}
