import {
  ErrorCode,
  type LoggingLevel,
  McpError,
  type MetaObject,
  type OutgoingNotification,
  type OutgoingRequest,
  type RequestId,
  type RequestOptions,
  ResultSchema,
} from '@x/protocol';
import type { ServerContext } from '@x/server';
import { type InputRequest, isInputRequiredResult } from './input-required.js';

/**
 * The second argument of every 2.x server handler (`ServerContext` of `@modelcontextprotocol/server`),
 * built from x-mcp's `ServerContext`. Requests to the client go the x-mcp way (`ctx.elicit`,
 * `ctx.sample`, `ctx.listRoots`), so they work on both eras.
 *
 * @example
 * ```ts
 * server.registerTool('hello', {}, async (ctx) => {
 *   await ctx.mcpReq.log('info', 'saying hello');
 *   return { content: [{ type: 'text', text: `hello from ${ctx.mcpReq.method}` }] };
 * });
 * ```
 */
export interface HandlerContext {
  sessionId?: string | undefined;
  mcpReq: {
    id: RequestId;
    method: string;
    _meta?: MetaObject | undefined;
    signal: AbortSignal;
    /** The answers of the previous `inputRequired` round, by key. */
    inputResponses?: Record<string, unknown> | undefined;
    /** The `requestState` the previous `inputRequired` round returned, as given. */
    requestState: <T = unknown>() => T | undefined;
    send(
      request: { method: string; params?: Record<string, unknown> },
      options?: RequestOptions,
    ): Promise<unknown>;
    notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
    log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
    elicitInput(params: Record<string, unknown>, options?: RequestOptions): Promise<unknown>;
    requestSampling(params: Record<string, unknown>, options?: RequestOptions): Promise<unknown>;
  };
  http?: { authInfo?: ServerContext['authInfo'] } | undefined;
}

/** Rounds of `inputRequired` one request may take before it fails (2.x clients stop at a like bound). */
export const MAX_INPUT_ROUNDS = 8;

function handlerContext(
  ctx: ServerContext,
  inputResponses: Record<string, unknown> | undefined,
  requestState: string | undefined,
): HandlerContext {
  const timeout = (options?: RequestOptions) =>
    options?.timeout === undefined ? {} : { timeout: options.timeout };
  return {
    sessionId: ctx.sessionId,
    mcpReq: {
      id: ctx.requestId,
      method: ctx.method,
      _meta: ctx._meta,
      signal: ctx.signal,
      inputResponses,
      requestState: <T>() => requestState as T | undefined,
      send: (request, options) => ask(ctx, request as InputRequest, undefined, options),
      notify: (notification) => ctx.sendNotification(notification as OutgoingNotification),
      log: (level, data, logger) => ctx.log(level, data, logger),
      elicitInput: (params, options) => ctx.elicit(params as never, timeout(options)),
      requestSampling: (params, options) => ctx.sample(params as never, timeout(options)),
    },
    ...(ctx.authInfo === undefined ? {} : { http: { authInfo: ctx.authInfo } }),
  };
}

/** Sends one request to the client: the three input kinds the x-mcp way, others on the session. */
function ask(
  ctx: ServerContext,
  request: InputRequest | { method: string; params?: Record<string, unknown> },
  key: string | undefined,
  options?: RequestOptions,
): Promise<unknown> {
  const input = {
    ...(key === undefined ? {} : { key }),
    ...(options?.timeout === undefined ? {} : { timeout: options.timeout }),
  };
  const params = (request.params ?? {}) as never;
  switch (request.method) {
    case 'elicitation/create':
      return ctx.elicit(params, input);
    case 'sampling/createMessage':
      return ctx.sample(params, input);
    case 'roots/list':
      return ctx.listRoots(input);
    default:
      return ctx.session.request(request as OutgoingRequest, ResultSchema, options);
  }
}

/**
 * Runs a 2.x handler on an x-mcp request. A handler that returns `inputRequired(…)` gets its answers
 * (asked with the result's own keys, so a 2026-07-28 retry finds them) and runs again with them in
 * `ctx.mcpReq.inputResponses`, until it returns a plain result.
 *
 * @example
 * ```ts
 * xServer.registerTool('deploy', config, (args, ctx) => runHandler(ctx, (c) => callback(args, c)));
 * ```
 */
export async function runHandler<R>(
  ctx: ServerContext,
  handler: (context: HandlerContext) => R | Promise<R>,
): Promise<R> {
  let responses: Record<string, unknown> | undefined;
  let state: string | undefined;
  for (let round = 0; round <= MAX_INPUT_ROUNDS; round++) {
    const result: unknown = await handler(handlerContext(ctx, responses, state));
    if (!isInputRequiredResult(result)) return result as R;
    state = result.requestState;
    const requests = Object.entries(result.inputRequests ?? {});
    const answers = await Promise.all(requests.map(([key, request]) => ask(ctx, request, key)));
    responses = { ...responses, ...Object.fromEntries(requests.map(([key], i) => [key, answers[i]])) };
  }
  throw new McpError(
    ErrorCode.InternalError,
    `More than ${MAX_INPUT_ROUNDS} inputRequired rounds for ${ctx.method}`,
  );
}
