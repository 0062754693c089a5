import type { Client } from '@x/client';
import type { CallToolResult, Task, Tool } from '@x/protocol';
import type { Terminal } from '../output/terminal.js';

/** How long Ctrl-C waits for the server to acknowledge `tasks/cancel` before the CLI exits anyway. */
const CANCEL_WAIT_MS = 5_000;

/**
 * Whether `x-mcp call` runs the tool as a task: on 2026-07-28 always (the server decides, SEP-2663;
 * a plain answer comes back as it is); on 2025-11-25 when the server declares task-augmented
 * `tools/call` and the tool's `execution.taskSupport` is `optional` or `required`.
 */
export function runsAsTask(client: Client, tool: Tool | undefined): boolean {
  if (client.era === 'modern') return true;
  const support = tool?.execution?.taskSupport;
  return (
    (support === 'optional' || support === 'required') &&
    client.serverCapabilities?.tasks?.requests?.tools?.call !== undefined
  );
}

/** One line for a task's state: `task 1f3c… working: Gathering sources...`. */
export function formatTaskStatus(task: Task): string {
  const message = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
  return `task ${task.taskId} ${task.status}${message}`;
}

/**
 * Calls `name` as a task and follows it to its result, showing each status on `status` (a live line on
 * a terminal). Ctrl-C (`signal`) cancels the task on the server (waiting up to 5 s for the ack) before
 * the error propagates.
 */
export async function callTask(options: {
  client: Client;
  name: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  terminal: Terminal;
  status: (line: string) => void;
  onprogress?:
    | ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void)
    | undefined;
}): Promise<CallToolResult> {
  const { client, name, args, signal, status } = options;
  let taskId: string | undefined;
  try {
    return await client.callToolInTask(
      { name, arguments: args },
      {
        signal,
        onstatus: (task) => {
          taskId = task.taskId;
          status(formatTaskStatus(task));
        },
        ...(options.onprogress === undefined ? {} : { onprogress: options.onprogress }),
      },
    );
  } catch (error) {
    if (signal.aborted && taskId !== undefined) {
      // The client sends tasks/cancel on its own as well; this one is awaited, so the cancellation has
      // reached the server before the CLI exits. Whichever lands second finds the task cancelled already.
      const id = taskId;
      const bounded = () => ({ signal: AbortSignal.timeout(CANCEL_WAIT_MS) });
      const final = await client
        .cancelTask(id, bounded())
        .catch(() => client.getTask(id, bounded()))
        .catch(() => undefined);
      if (final !== undefined) options.terminal.err(formatTaskStatus(final));
    }
    throw error;
  }
}
