import type { Client, ClientRequestOptions } from '@x/client';
import type { ServerCapabilities } from '@x/protocol/core';

/** The one revision whose tasks the bridge forwards as they are (spec 2025-11-25 basic/utilities/tasks). */
const TASKS_REVISION = '2025-11-25';

/** The `tasks/*` requests a 2025-11-25 host sends about its tasks, each forwarded unchanged. */
export const FORWARDED_TASK_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

/**
 * The upstream's `tasks` capability when the bridge forwards tasks as they are: both hops speak
 * 2025-11-25 and the upstream declares `tasks`. Between eras nothing is forwarded (a 2026-07-28 task
 * handle is not a 2025-11-25 one): the bridge declares no `tasks`, so a 2025-11-25 host's own client
 * refuses a task-augmented call, and a 2026-07-28 host's call gets the plain result (docs/bridge.md).
 */
export function forwardedTasks(
  client: Client,
  downstreamVersion: string | undefined,
): NonNullable<ServerCapabilities['tasks']> | undefined {
  if (downstreamVersion !== TASKS_REVISION || client.protocolVersion !== TASKS_REVISION) return undefined;
  return client.serverCapabilities?.tasks;
}

/**
 * Sends a 2025-11-25 host's task request upstream unchanged: a task-augmented `tools/call` (its
 * `CreateTaskResult` answered as is, the upstream keeps the task), or one of `FORWARDED_TASK_METHODS`.
 */
export function forwardTask(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  options: ClientRequestOptions,
): Promise<object> {
  if (method === 'tools/call') {
    const { task, ...call } = params as { task?: { ttl?: unknown }; name: string };
    const ttl = typeof task?.ttl === 'number' ? task.ttl : undefined;
    return client.callToolAsTask(call, { ...options, ttl });
  }
  return client.request({ method, params } as never, options);
}
