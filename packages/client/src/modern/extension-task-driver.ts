import {
  DEFAULT_TASK_POLL_INTERVAL_MS,
  type DetailedTask,
  ErrorCode,
  fromDetailedTask,
  type InputRequests,
  McpError,
  type RequestOptions,
  type Task,
} from '@x/protocol/core';
import {
  DeferredDetailedTaskSchema,
  DeferredResultSchema,
  delay,
  formatIssues,
  safeParseDeferred,
} from '@x/protocol/internal';
import { fulfil, type RoundTripContext } from './round-trip-context.js';

/**
 * How a caller follows a task the server created (both eras share these names; see `TaskRunOptions`).
 *
 * @example
 * ```ts
 * const options: TaskFollowOptions = { onstatus: (task) => console.log(task.status, task.statusMessage ?? '') };
 * ```
 */
export interface TaskFollowOptions {
  /** Every task state seen (the `CreateTaskResult`'s first). */
  onstatus?: ((task: Task) => void) | undefined;
  /** Poll interval when the server suggests none. Default `DEFAULT_TASK_POLL_INTERVAL_MS` (1 s). */
  defaultPollIntervalMs?: number | undefined;
  /** Answer with the task handle instead of following it (`callToolAsTask`). */
  keepTaskHandle?: boolean | undefined;
}

/** Options of a request that may end up following a task. */
export type TaskAwareOptions = RequestOptions & TaskFollowOptions;

/** `tasks/*` of the extension: a request with the envelope, its result checked by `schema`. */
export function taskRequest(
  ctx: RoundTripContext,
  method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
  params: Record<string, unknown>,
  options: RequestOptions | undefined,
): Promise<Record<string, unknown>> {
  return ctx.engine.request(
    { method, params: ctx.envelope.apply(params) },
    DeferredResultSchema,
    options,
  ) as Promise<Record<string, unknown>>;
}

/** `tasks/get` on 2026-07-28: the `DetailedTask` (SEP-2663 "Task Polling"). */
export async function getDetailedTask(
  ctx: RoundTripContext,
  taskId: string,
  options: RequestOptions | undefined,
): Promise<DetailedTask> {
  return parseTask(await taskRequest(ctx, 'tasks/get', { taskId }, options), 'tasks/get');
}

export async function parseTask(value: unknown, what: string): Promise<DetailedTask> {
  const parsed = await safeParseDeferred(DeferredDetailedTaskSchema, value);
  if (!parsed.success) {
    throw new McpError(
      ErrorCode.InternalError,
      `Invalid task in the ${what} result: ${formatIssues(parsed.error)}`,
    );
  }
  return parsed.data;
}

/**
 * Follows a task of the `io.modelcontextprotocol/tasks` extension to its end (SEP-2663, "For MCP
 * clients"): polls `tasks/get` every `pollIntervalMs` (which "MAY change over the lifetime of a task"),
 * answers new `inputRequests` through the registered handlers with `tasks/update` (each key once:
 * "Clients SHOULD deduplicate inputRequests keys across consecutive polls"), and resolves with the
 * inlined `result` once `completed`; `failed` rejects with the task's JSON-RPC error, `cancelled` with
 * -32800-style `McpError`. Aborting `signal` sends `tasks/cancel` (best effort) and rejects.
 */
export async function followTask(
  ctx: RoundTripContext,
  created: DetailedTask,
  options: TaskAwareOptions | undefined,
): Promise<Record<string, unknown>> {
  const signal = options?.signal;
  const taskId = created.taskId;
  const answered = new Set<string>();
  const requestOptions: RequestOptions | undefined = signal === undefined ? undefined : { signal };
  let current = created;
  try {
    for (;;) {
      options?.onstatus?.(fromDetailedTask(current));
      switch (current.status) {
        case 'completed':
          if (current.result === undefined) {
            throw new McpError(ErrorCode.InternalError, `Task ${taskId} completed without a result`);
          }
          return current.result;
        case 'failed': {
          const error = current.error ?? {
            code: ErrorCode.InternalError,
            message: current.statusMessage ?? 'failed',
          };
          throw new McpError(error.code, error.message, error.data);
        }
        case 'cancelled':
          throw new McpError(
            ErrorCode.InvalidRequest,
            `Task ${taskId} was cancelled${current.statusMessage === undefined ? '' : `: ${current.statusMessage}`}`,
          );
        case 'input_required':
          if (await answer(ctx, taskId, current.inputRequests, answered, requestOptions)) {
            current = await getDetailedTask(ctx, taskId, requestOptions);
            continue;
          }
          break;
        default:
          break;
      }
      await delay(
        current.pollIntervalMs ?? options?.defaultPollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
        signal,
      );
      current = await getDetailedTask(ctx, taskId, requestOptions);
    }
  } catch (error) {
    if (signal?.aborted === true) {
      // "Clients MAY delete all state associated with the task as soon as they send a cancellation."
      void taskRequest(ctx, 'tasks/cancel', { taskId }, undefined).catch(() => undefined);
    }
    throw error;
  }
}

/** Answers the keys not answered before; true when a `tasks/update` went out. */
async function answer(
  ctx: RoundTripContext,
  taskId: string,
  requests: InputRequests | undefined,
  answered: Set<string>,
  options: RequestOptions | undefined,
): Promise<boolean> {
  if (requests === undefined) return false;
  const fresh: InputRequests = {};
  let count = 0;
  for (const key of Object.keys(requests)) {
    if (answered.has(key)) continue;
    answered.add(key);
    fresh[key] = requests[key]!;
    count++;
  }
  if (count === 0) return false;
  const inputResponses = await fulfil(ctx.handlers, fresh, options?.signal);
  await taskRequest(ctx, 'tasks/update', { taskId, inputResponses }, options);
  return true;
}
