import type { Task } from '@x/protocol';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { formatTaskStatus } from './task-call.js';

const ACTIONS = ['get', 'cancel', 'result', 'list'] as const;
type Action = (typeof ACTIONS)[number];

function describe(task: Task): string {
  const lines = [formatTaskStatus(task), `  created ${task.createdAt}, updated ${task.lastUpdatedAt}`];
  const timing = [
    task.ttl === null ? 'ttl unlimited' : `ttl ${task.ttl} ms`,
    task.pollInterval === undefined ? undefined : `poll every ${task.pollInterval} ms`,
  ].filter((part) => part !== undefined);
  lines.push(`  ${timing.join(', ')}`);
  return lines.join('\n');
}

/**
 * `x-mcp tasks get|cancel|result <task-id>` and `x-mcp tasks list`: a task's state, cancelling it, its
 * result (waits until it ends) and the caller's tasks. `get`/`cancel`/`result` work on both eras (2025-11-25
 * tasks and the 2026-07-28 extension); `list` exists on 2025-11-25 only (SEP-2663 removed it).
 */
export const tasks: ClientCommand = (input) => {
  const [action, ...rest] = input.positionals;
  if (action === undefined || !(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(
      `expected one of ${ACTIONS.join(', ')}${action === undefined ? '' : ` (got ${action})`}`,
      {
        command: input.command,
      },
    );
  }
  const verb = action as Action;
  const own = { ...input, positionals: rest };
  if (verb === 'list') expectPositionals(own, { max: 0 });
  else expectPositionals(own, { names: ['<task-id>: the task (see the status line of x-mcp call)'], max: 1 });
  const taskId = rest[0] ?? '';
  return async ({ session, terminal, options, signal }) => {
    const { client } = session;
    switch (verb) {
      case 'get': {
        const task = await client.getTask(taskId, { signal });
        if (options.json) terminal.json(task);
        else terminal.out(describe(task));
        return ExitCode.Ok;
      }
      case 'cancel': {
        const task = await client.cancelTask(taskId, { signal });
        if (options.json) terminal.json(task);
        else terminal.out(formatTaskStatus(task));
        return ExitCode.Ok;
      }
      case 'result': {
        const result = await client.getTaskResult(taskId, { signal });
        terminal.json(result);
        return result.isError === true ? ExitCode.ProtocolError : ExitCode.Ok;
      }
      case 'list': {
        const all: Task[] = [];
        for await (const task of client.iterateTasks({ signal })) all.push(task);
        if (options.json) terminal.json({ tasks: all });
        else if (all.length === 0) terminal.out('no tasks');
        else for (const task of all) terminal.out(formatTaskStatus(task));
        return ExitCode.Ok;
      }
    }
  };
};
