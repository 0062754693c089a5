import {
  type ClientRequestMethod,
  ErrorCode,
  type InputRequiredResult,
  type InputResponses,
  McpError,
  type RequestOptions,
  type Result,
  ResultType,
  type ZodSchema,
} from '@x/protocol/core';
import {
  DeferredCallToolOutcomeSchema,
  deferredClientResultSchemaOf,
  DeferredGetPromptOutcomeSchema,
  DeferredReadResourceOutcomeSchema,
} from '@x/protocol/internal';
import { followTask, parseTask, type TaskAwareOptions } from './extension-task-driver.js';
import { fulfil, type RoundTripContext } from './round-trip-context.js';

export type { RoundTripContext } from './round-trip-context.js';

/**
 * Multi round-trip requests (2026-07-28 basic/patterns/mrtr). Only these methods may answer
 * `input_required` ("Supported Requests"); their result schema accepts both outcomes, built on first use.
 */
const INPUT_CAPABLE: ReadonlyMap<string, ZodSchema> = new Map<string, ZodSchema>([
  // A task handle (SEP-2663, resultType "task") is checked again by `followTask`.
  ['tools/call', DeferredCallToolOutcomeSchema],
  ['prompts/get', DeferredGetPromptOutcomeSchema],
  ['resources/read', DeferredReadResourceOutcomeSchema],
]);

/** The schema of a method that may answer `input_required`: its result or an `InputRequiredResult`. */
function inputCapableSchema(method: string): ZodSchema | undefined {
  return INPUT_CAPABLE.get(method);
}

/** Final results reached through a retry: they depend on inputs outside the cache key (caching, "Cache Key"). */
const retried = new WeakSet<object>();

/** Whether `result` answered a retry carrying `inputResponses`/`requestState` (so it MUST NOT be cached). */
export function isRetriedResult(result: object): boolean {
  return retried.has(result);
}

/**
 * Thrown when a request still asks for input after `maxInputRounds` retries.
 *
 * @example
 * ```ts
 * const client = new Client(info, { maxInputRounds: 3 });
 * await client.callTool({ name: 'wizard' }).catch((e) => e instanceof InputRoundsExceededError && giveUp());
 * ```
 */
export class InputRoundsExceededError extends McpError {
  override readonly name = 'InputRoundsExceededError';
  constructor(method: string, rounds: number) {
    super(
      ErrorCode.InternalError,
      `${method} still requires input after ${rounds} round trips (maxInputRounds); giving up`,
    );
  }
}

/**
 * Sends `method` and, while the server answers `input_required`, fulfils its input requests through the
 * registered handlers and retries with a fresh JSON-RPC id (the engine issues one per request), the
 * collected `inputResponses` and the byte-exact `requestState` ("Client Requirements").
 *
 * The first round is one `then` on the engine's promise (a plain answer, the usual case, costs no
 * `async` frames); rounds that ask for input continue in {@link inputRounds}.
 */
export function requestWithInput(
  ctx: RoundTripContext,
  method: ClientRequestMethod,
  params: Record<string, unknown> | undefined,
  options: RequestOptions | undefined,
): Promise<Result> {
  const inputSchema = inputCapableSchema(method);
  const schema = inputSchema ?? deferredClientResultSchemaOf(method);
  const first = ctx.engine.send({ method, params: ctx.envelope.apply(params) }, schema, options);
  return first.then((result) =>
    isComplete(result as Result, method, inputSchema)
      ? finish(ctx, method, result as Result, options)
      : inputRounds(ctx, method, params, options, schema, result as Result),
  );
}

/**
 * A final answer; a task handle (SEP-2663: the client "MUST be prepared to handle either") is followed
 * to the task's result, unless the caller wants the handle itself.
 */
function finish(
  ctx: RoundTripContext,
  method: string,
  result: Result,
  options: TaskAwareOptions | undefined,
): Result | Promise<Result> {
  if (result.resultType !== ResultType.Task) return result;
  return parseTask(result, method).then((task) =>
    options?.keepTaskHandle === true ? result : (followTask(ctx, task, options) as Promise<Result>),
  );
}

/** True for a final result; throws for a result type this client cannot act on. */
function isComplete(result: Result, method: string, inputSchema: object | undefined): boolean {
  const type = result.resultType;
  if (type === undefined || type === ResultType.Complete) return true;
  // A task handle: only tools/call may answer one ("Supported Methods"); it is a final answer.
  if (type === ResultType.Task && method === 'tools/call') return true;
  // Unknown result types MUST be treated as invalid (basic/index, "ResultType").
  if (type !== ResultType.InputRequired || inputSchema === undefined) {
    throw new McpError(ErrorCode.InternalError, `Invalid resultType "${type}" in the ${method} result`);
  }
  return false;
}

/** The rounds after an `input_required` answer, until a final result or `maxInputRounds`. */
async function inputRounds(
  ctx: RoundTripContext,
  method: ClientRequestMethod,
  params: Record<string, unknown> | undefined,
  options: RequestOptions | undefined,
  schema: ZodSchema,
  first: Result,
): Promise<Result> {
  let result = first;
  for (let round = 1; ; round++) {
    if (round > ctx.maxInputRounds) throw new InputRoundsExceededError(method, ctx.maxInputRounds);
    // Validated by the engine against `schema`, which checks an input_required result in full.
    const required = result as InputRequiredResult;
    const responses = await fulfil(ctx.handlers, required.inputRequests, options?.signal);
    const current = retryParams(params, responses, required);
    result = (await ctx.engine.send(
      { method, params: ctx.envelope.apply(current) },
      schema,
      options,
    )) as Result;
    if (isComplete(result, method, schema)) {
      retried.add(result);
      return finish(ctx, method, result, options);
    }
  }
}

function retryParams(
  original: Record<string, unknown> | undefined,
  responses: InputResponses | undefined,
  required: InputRequiredResult,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...original };
  delete next['inputResponses'];
  delete next['requestState'];
  if (responses !== undefined) next['inputResponses'] = responses;
  // Echo exactly what came; without one the retry MUST NOT carry any.
  if (required.requestState !== undefined) next['requestState'] = required.requestState;
  return next;
}
