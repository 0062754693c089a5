import { ErrorCode, McpError } from '@x/protocol';
import type { McpServer, ServerContext } from '@x/server';
import { z } from 'zod';

/**
 * The task tools of the everything fixture: what the `tasks-*` conformance scenarios call (SEP-2663,
 * the `io.modelcontextprotocol/tasks` extension; the same tools serve 2025-11-25 tasks).
 */

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const confirmSchema = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};
const nameSchema = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

/** Waits `ms`, or rejects as soon as the task is cancelled. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sleeps `seconds` in steps of at most 250 ms, reporting each step as the task's status. */
async function compute(seconds: number, ctx: ServerContext): Promise<void> {
  const total = Math.max(0, seconds * 1000);
  for (let done = 0; done < total; ) {
    const step = Math.min(250, total - done);
    await wait(step, ctx.signal);
    done += step;
    await ctx.reportTaskStatus(`computed ${(done / 1000).toFixed(2)} of ${seconds} s`);
  }
}

export function registerTaskTools(server: McpServer): void {
  server.registerTool(
    'greet',
    { description: 'Sync-only: says hello', inputSchema: z.object({ name: z.string() }) },
    ({ name }) => text(`Hello, ${name}!`),
  );
  server.registerTool(
    'slow_compute',
    {
      description: 'Task-supporting: sleeps `seconds`, then returns',
      inputSchema: z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() }),
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, ctx) => {
      await compute(seconds, ctx);
      return text(`Computed ${label ?? 'result'} after ${seconds} s`);
    },
  );
  server.registerTool(
    'failing_job',
    { description: 'Task-required: reports a tool error after ~1 s', execution: { taskSupport: 'required' } },
    async (_args, ctx) => {
      await wait(1000, ctx.signal);
      return { ...text('The job failed: simulated tool error'), isError: true };
    },
  );
  server.registerTool(
    'protocol_error_job',
    { description: 'Task-supporting: fails with a JSON-RPC error', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      await wait(100, ctx.signal);
      throw new McpError(ErrorCode.InternalError, 'Simulated internal failure of protocol_error_job');
    },
  );
  server.registerTool(
    'confirm_delete',
    {
      description: 'Task-supporting: asks for confirmation (task inputRequests), then deletes',
      inputSchema: z.object({ filename: z.string() }),
      execution: { taskSupport: 'optional' },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: `Delete ${filename}?`,
        requestedSchema: confirmSchema,
      });
      const confirmed = answer.action === 'accept' && answer.content?.['confirm'] === true;
      return text(confirmed ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );
  server.registerTool(
    'multi_input',
    { description: 'Task-supporting: asks two questions at once', execution: { taskSupport: 'optional' } },
    async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit({ mode: 'form', message: 'First: your name?', requestedSchema: nameSchema }),
        ctx.elicit({ mode: 'form', message: 'Second: your name?', requestedSchema: nameSchema }),
      ]);
      return text(`Got ${String(first.content?.['name'])} and ${String(second.content?.['name'])}`);
    },
  );
  server.registerTool(
    'test_tool_with_task',
    {
      description: 'MRTR then task: asks for user_name synchronously, then continues as a task',
      execution: { taskSupport: 'required' },
      startsTask: 'handler',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        { mode: 'form', message: 'What is your name?', requestedSchema: nameSchema },
        { key: 'user_name' },
      );
      const name = String(answer.content?.['name'] ?? 'stranger');
      return ctx.runAsTask(async (taskCtx) => {
        await compute(0.5, taskCtx);
        return text(`Hello, ${name}! (from a task)`);
      });
    },
  );
}
