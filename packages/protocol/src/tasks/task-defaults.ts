/**
 * Defaults of the task options (2025-11-25 tasks and the tasks extension), shared by the receiver that
 * runs tasks and the requestor that polls them (issue #36: no default is written inline).
 */

/**
 * `ttl` of a task whose requestor asked for none (`defaultTtlMs`): 5 minutes, long enough for a
 * requestor to come back for the result, short enough that forgotten tasks do not pile up.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ defaultTtlMs: 2 * DEFAULT_TASK_TTL_MS });
 * ```
 */
export const DEFAULT_TASK_TTL_MS = 300_000;

/**
 * Longest `ttl` a receiver grants (`maxTtlMs`); a longer request is capped: 1 hour, so that a requestor
 * cannot make a finished task's result occupy memory for days.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ maxTtlMs: DEFAULT_MAX_TASK_TTL_MS / 6 });
 * ```
 */
export const DEFAULT_MAX_TASK_TTL_MS = 3_600_000;

/**
 * Time between two polls of a task (`pollIntervalMs` a receiver suggests, `defaultPollIntervalMs` a
 * requestor uses when the receiver suggests none): 1 s, a result is seen soon without a request storm.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ pollIntervalMs: 5 * DEFAULT_TASK_POLL_INTERVAL_MS });
 * ```
 */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;

/**
 * Tasks one requestor may have running (not yet terminal) at once (`maxTasksPerOwner`): 32, so that
 * one requestor cannot take every slot of {@link DEFAULT_MAX_TASKS}.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ maxTasksPerOwner: DEFAULT_MAX_TASKS_PER_OWNER / 4 });
 * ```
 */
export const DEFAULT_MAX_TASKS_PER_OWNER = 32;

/**
 * Tasks per `tasks/list` page (`pageSize`): 50, a page a client renders at once.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ pageSize: 2 * DEFAULT_TASK_PAGE_SIZE });
 * ```
 */
export const DEFAULT_TASK_PAGE_SIZE = 50;

/**
 * Tasks one receiver holds at once, running or finished and not yet expired (`maxTasks`): 10 000. Past
 * it the oldest finished task is dropped; when all are running a new one is refused.
 *
 * @example
 * ```ts
 * const tasks = new TaskReceiver({ maxTasks: DEFAULT_MAX_TASKS / 10 });
 * ```
 */
export const DEFAULT_MAX_TASKS = 10_000;
