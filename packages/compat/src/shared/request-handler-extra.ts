import {
  type AuthInfo,
  ErrorCode,
  McpError,
  type MetaObject,
  type OutgoingNotification,
  type OutgoingRequest,
  type RequestId,
  type RequestInfo,
  type RequestOptions,
  ResultSchema,
} from '@x/protocol';
import type { ServerContext } from '@x/server';
import { type AnySchema, describeIssues } from './method-of.js';

/**
 * The second argument of every official 1.x server handler (`RequestHandlerExtra` of
 * `shared/protocol.js`), built from x-mcp's `ServerContext`.
 *
 * @example
 * ```ts
 * server.registerTool('slow', { inputSchema: { n: z.number() } }, async ({ n }, extra) => {
 *   if (extra.signal.aborted) return { content: [], isError: true };
 *   await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: n } });
 *   return { content: [{ type: 'text', text: 'done' }] };
 * });
 * ```
 */
export interface RequestHandlerExtra {
  signal: AbortSignal;
  authInfo?: AuthInfo | undefined;
  sessionId?: string | undefined;
  _meta?: MetaObject | undefined;
  requestId: RequestId;
  taskId?: string | undefined;
  requestInfo?: RequestInfo | undefined;
  /**
   * Closes this request's SSE stream; the client resumes it with `Last-Event-ID` (SEP-1699). Present
   * on Streamable HTTP with an `eventStore`, as 1.x.
   */
  closeSSEStream?: (() => void) | undefined;
  /** Closes the session's standalone GET stream; the client reconnects it. Streamable HTTP only. */
  closeStandaloneSSEStream?: (() => void) | undefined;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  sendRequest<S extends AnySchema>(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: S,
    options?: RequestOptions,
  ): Promise<ParsedOf<S>>;
}

/** What a schema parses to (zod 3 and 4 both type `safeParse().data`). */
export type ParsedOf<S extends AnySchema> = NonNullable<ReturnType<S['safeParse']>['data']>;

/**
 * The official `extra` of one request. Requests to the client go the x-mcp way: sampling, elicitation
 * and roots through `ctx.sample/elicit/listRoots` (which also work on 2026-07-28 requests), anything
 * else through the session.
 *
 * @example
 * ```ts
 * this.server.setRequestHandler('tools/call', (params, ctx) => handler(params, toRequestExtra(ctx)));
 * ```
 */
export function toRequestExtra(ctx: ServerContext): RequestHandlerExtra {
  return {
    signal: ctx.signal,
    authInfo: ctx.authInfo,
    sessionId: ctx.sessionId,
    _meta: ctx._meta,
    requestId: ctx.requestId,
    taskId: ctx.taskId,
    requestInfo: ctx.requestInfo,
    closeSSEStream: ctx.request.extra?.closeSSEStream,
    closeStandaloneSSEStream: ctx.request.extra?.closeStandaloneSSEStream,
    sendNotification: (notification) => ctx.sendNotification(notification as OutgoingNotification),
    sendRequest: async (request, resultSchema, options) => {
      const params = (request.params ?? {}) as never;
      const input = options?.timeout === undefined ? {} : { timeout: options.timeout };
      const result: unknown =
        request.method === 'sampling/createMessage'
          ? await ctx.sample(params, input)
          : request.method === 'elicitation/create'
            ? await ctx.elicit(params, input)
            : request.method === 'roots/list'
              ? await ctx.listRoots(input)
              : await ctx.session.request(request as OutgoingRequest, ResultSchema, options);
      return parseResult(resultSchema, result, request.method);
    },
  };
}

/**
 * A result checked by the caller's own schema (zod 3 or 4), as the official `request(req, schema)` does.
 *
 * @example
 * ```ts
 * const result = parseResult(CallToolResultSchema, raw, 'tools/call');
 * ```
 */
export function parseResult<S extends AnySchema>(schema: S, result: unknown, method: string): ParsedOf<S> {
  const parsed = schema.safeParse(result);
  if (!parsed.success) {
    // InternalError, as x-mcp's engine: the peer's answer is malformed, not our params.
    throw new McpError(
      ErrorCode.InternalError,
      `Invalid result for ${method}: ${describeIssues(parsed.error)}`,
      undefined,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data as ParsedOf<S>;
}
