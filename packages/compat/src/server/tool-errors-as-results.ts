import { ErrorCode, type Interceptor, McpError } from '@x/protocol/core';

/**
 * The errors 1.x raises inside its `tools/call` handler: -32602 (unknown or disabled tool, invalid
 * arguments) and -32601 (`taskSupport: 'required'` without a task). Others (a call before
 * `initialize`, a shutting-down server) are the protocol's and stay JSON-RPC errors, as in 1.x.
 */
const TOOL_CALL_ERRORS: ReadonlySet<number> = new Set([ErrorCode.InvalidParams, ErrorCode.MethodNotFound]);

/**
 * 1.x `McpServer` answers a failed `tools/call` (an unknown or disabled tool, a task-support mismatch,
 * invalid arguments) with an `isError` tool result carrying the error's message, so the model sees it. x-mcp answers those with
 * JSON-RPC errors (the spec allows both); this interceptor restores 1.x's answer on a compat `McpServer`.
 *
 * @example
 * ```ts
 * xServer.use(toolErrorsAsResults);
 * ```
 */
export const toolErrorsAsResults: Interceptor = {
  async incomingRequest(request, _ctx, next) {
    if (request.method !== 'tools/call') return next(request);
    try {
      return await next(request);
    } catch (error) {
      if (!(error instanceof McpError) || !TOOL_CALL_ERRORS.has(error.code)) throw error;
      return { content: [{ type: 'text', text: error.message }], isError: true };
    }
  },
};
