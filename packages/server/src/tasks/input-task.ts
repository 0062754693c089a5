import type { CreateTaskResult } from '@x/protocol/core';
import {
  DeferredCreateTaskResultSchema,
  DeferredGetTaskResultSchema,
  pollTask,
  type TaskPeer,
} from '@x/protocol/internal';
import type { InputOptions, InputRequestSpec } from '../input-requests.js';
import type { ServerContext } from '../server-context.js';
import { TASKS_REVISION } from './server-tasks.js';

/** The `tasks.requests` entry a client declares for each input request it runs as a task (spec "Client Capabilities"). */
const TASK_OPERATION: Partial<Record<InputRequestSpec['method'], readonly [string, string]>> = {
  'sampling/createMessage': ['sampling', 'createMessage'],
  'elicitation/create': ['elicitation', 'create'],
};

/**
 * Whether `ctx.sample`/`ctx.elicit` with `options.task` can run as a task on the client: a 2025-11-25
 * session whose client declared `tasks.requests.<category>.<operation>` ("Requestors SHOULD only
 * augment requests with a task if the corresponding capability has been declared by the receiver").
 * Otherwise the request is sent plainly.
 */
export function canAugment(
  ctx: ServerContext,
  spec: InputRequestSpec,
  options: InputOptions | undefined,
): boolean {
  if (options?.task === undefined || ctx.protocolVersion !== TASKS_REVISION) return false;
  const operation = Object.hasOwn(TASK_OPERATION, spec.method) ? TASK_OPERATION[spec.method] : undefined;
  if (operation === undefined) return false;
  const requests = ctx.clientCapabilities.tasks?.requests as
    | Record<string, Record<string, unknown> | undefined>
    | undefined;
  return requests?.[operation[0]]?.[operation[1]] !== undefined;
}

/**
 * The server as requestor (spec 2025-11-25 basic/utilities/tasks, "Task-Augmented Sampling Request"):
 * sends the request with `params.task`, then polls the client's task with `tasks/get` and fetches the
 * answer with `tasks/result`. Aborting the handler's signal cancels the task on the client.
 */
export async function inputAsTask(
  ctx: ServerContext,
  spec: InputRequestSpec,
  options: InputOptions & { task: { ttl?: number | undefined } },
): Promise<unknown> {
  const request = ctx.request;
  const signal = request.signal;
  const task = options.task.ttl === undefined ? {} : { ttl: options.task.ttl };
  const created: CreateTaskResult = await request.sendRequest(
    { method: spec.method, params: { ...spec.params, task } },
    DeferredCreateTaskResultSchema,
    options.timeout === undefined ? undefined : { timeout: options.timeout },
  );
  const peer: TaskPeer<unknown> = {
    getTask: (taskId) =>
      request.sendRequest({ method: 'tasks/get', params: { taskId } }, DeferredGetTaskResultSchema),
    // tasks/result blocks until the task ends: its ttl bounds it, not a request timeout.
    getTaskResult: (taskId) =>
      request.sendRequest({ method: 'tasks/result', params: { taskId } }, spec.resultSchema, {
        timeout: Number.POSITIVE_INFINITY,
        maxTotalTimeout: Number.POSITIVE_INFINITY,
      }),
  };
  try {
    return await pollTask(peer, created.task, { signal });
  } catch (error) {
    if (signal.aborted) {
      const taskId = created.task.taskId;
      // Not through `request`: its signal is the one that just aborted.
      void ctx.session
        .request({ method: 'tasks/cancel', params: { taskId } }, DeferredGetTaskResultSchema)
        .catch(() => undefined);
    }
    throw error;
  }
}
