import { type CallToolResult, ErrorCode, McpError } from '@x/protocol';
import type { ServerContext } from '../server-context.js';
import type { ToolRegistry } from './tool-registry.js';

/**
 * `tools/call` with the tool-level task rules (spec 2025-11-25 basic/utilities/tasks, "Tool-Level
 * Negotiation"). They apply only where the session has the `tasks` capability; elsewhere the `task`
 * field is ignored and the tool runs normally ("Receivers that do not declare the task capability
 * for a request type MUST process requests of that type normally").
 * - `taskSupport` absent or `forbidden` + a task: -32601 (the spec's SHOULD);
 * - `required` without a task: -32601 ("Servers MUST return a -32601 (Method not found) error");
 * - otherwise a task is accepted, and a result with `isError: true` makes it `failed`.
 */
export function callToolWithTasks(
  registry: ToolRegistry,
  params: Record<string, unknown>,
  ctx: ServerContext,
): object | Promise<object> {
  if (!ctx.tasksEnabled) return registry.call(params, ctx);
  const name = params['name'];
  const tool = typeof name === 'string' ? registry.entry(name) : undefined;
  // An unknown tool is -32602 whether or not a task was asked for.
  if (tool === undefined || !tool.enabled) return registry.call(params, ctx);
  const support = tool.definition.execution?.taskSupport ?? 'forbidden';
  const requested = ctx.taskRequested !== undefined;
  if (requested && support === 'forbidden') {
    return Promise.reject(
      new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${String(name)} does not support task-augmented calls (execution.taskSupport is "${support}")`,
      ),
    );
  }
  if (!requested && support === 'required') {
    return Promise.reject(
      new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${String(name)} must be called as a task (execution.taskSupport is "required")`,
      ),
    );
  }
  if (!requested) return registry.call(params, ctx);
  return ctx.runAsTask((taskCtx) => registry.call(params, taskCtx), { failure: toolFailure });
}

/** "For tool calls specifically, this includes cases where the tool call result has isError set to true." */
function toolFailure(result: Record<string, unknown>): { message?: string | undefined } | undefined {
  if (result['isError'] !== true) return undefined;
  const first = (result as CallToolResult).content?.[0];
  return { message: first?.type === 'text' ? first.text : 'The tool reported an error' };
}
