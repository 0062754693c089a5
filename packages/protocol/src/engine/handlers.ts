import type { z } from 'zod';
import { ErrorCode, McpError } from '../errors.js';
import {
  JSONRPC_VERSION,
  type JSONRPCErrorObject,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from '../jsonrpc.js';
import type { MessageExtraInfo } from '../transport.js';
import { isThenable } from '../thenable.js';
import { formatIssues } from './format-issues.js';
import type { RequestContext } from './request-context.js';
import type { FallbackRequestHandler, NotificationHandler, RequestHandler } from './handler-types.js';
import type { ZodSchema } from './types.js';
import { fastAccepts } from '../schemas/fast-check.js';
import { isDeferredUnloaded, realSchema, schemaOrLoad } from '../schemas/lazy-schema.js';

/**
 * How registered handlers are stored and invoked. The schema is the one the caller built once at
 * registration; nothing is compiled per message (DESIGN §3).
 */

export interface HandlerEntry<H> {
  /**
   * The params schema. A lazily built schema of `@x/protocol` stays a facade until the first message
   * of its method arrives ({@link paramsSchema}): a client registers handlers for every server request
   * and notification it can answer, and building all of their schemas up front cost ~7 ms and ~0.9 MiB
   * of heap in each process's first `new Client()`, mostly for methods its server never sends.
   */
  schema: ZodSchema | undefined;
  /** Whether {@link schema} is final (no facade left to resolve). */
  resolved: boolean;
  handler: H;
}

export type RequestHandlerEntry = HandlerEntry<RequestHandler<unknown>>;
export type NotificationHandlerEntry = HandlerEntry<NotificationHandler<unknown>>;

/** Normalizes the `(schema, handler)` and `(handler)` registration forms. */
export function toEntry<H>(schemaOrHandler: ZodSchema | H, handler: H | undefined): HandlerEntry<H> {
  return typeof schemaOrHandler === 'function'
    ? { schema: undefined, resolved: true, handler: schemaOrHandler as H }
    : { schema: schemaOrHandler as ZodSchema, resolved: false, handler: handler as H };
}

/**
 * The entry's params schema, resolved from a lazy facade (built if need be) on the first message, so
 * that later messages parse with the schema itself rather than through its facade.
 */
function paramsSchema(entry: HandlerEntry<unknown>): ZodSchema | undefined {
  if (entry.resolved) return entry.schema;
  // A deferred schema not loaded yet stays a facade: `parseParams` loads it if a value needs it.
  if (isDeferredUnloaded(entry.schema)) return entry.schema;
  const schema = realSchema(entry.schema);
  entry.schema = schema;
  entry.resolved = true;
  return schema;
}

/** A registered handler, or the fallback for methods without one. */
export type RequestTarget = RequestHandlerEntry | FallbackRequestHandler;

/**
 * Runs a request's handler and turns whatever happens into the response to send: the result, the code of
 * a thrown `McpError`, -32602 for params failing the schema, or -32603 for anything else. A handler
 * that answers synchronously gets its response synchronously (no promise on the everyday path). A
 * fallback handler is called with `engine` as `this`.
 */
export function runRequestHandler(
  request: JSONRPCRequest,
  ctx: RequestContext,
  target: RequestTarget,
  engine: object,
): JSONRPCResponse | Promise<JSONRPCResponse> {
  let result: unknown;
  try {
    result =
      typeof target === 'function' ? target.call(engine, request, ctx) : callWithParams(target, request, ctx);
  } catch (error) {
    return errorResponse(request, error);
  }
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (value) => resultResponse(request, value),
      (error: unknown) => errorResponse(request, error),
    );
  }
  return resultResponse(request, result);
}

/**
 * Calls a request's handler the way {@link runRequestHandler} does, without turning the outcome into a
 * response: for the innermost `incomingRequest` interceptor layer, whose caller does that.
 */
export function invokeTarget(
  target: RequestTarget,
  request: JSONRPCRequest,
  ctx: RequestContext,
  engine: object,
): unknown {
  return typeof target === 'function'
    ? target.call(engine, request, ctx)
    : callWithParams(target, request, ctx);
}

/**
 * Calls `entry`'s handler with the message's checked params; when the params wait for a deferred schema
 * to load (see `parseParams`), with a promise of the handler's outcome.
 */
function callWithParams<C>(
  entry: HandlerEntry<(params: never, ctx: C) => unknown>,
  message: JSONRPCRequest | JSONRPCNotification,
  ctx: C,
): unknown {
  const params = parseParams(paramsSchema(entry), message.params, message.method);
  if (isThenable(params)) return Promise.resolve(params).then((value) => entry.handler(value as never, ctx));
  return entry.handler(params as never, ctx);
}

function resultResponse(request: JSONRPCRequest, result: unknown): JSONRPCResponse {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    const error = new McpError(
      ErrorCode.InternalError,
      `Handler for ${request.method} returned no result object`,
    );
    return errorResponse(request, error);
  }
  return { jsonrpc: JSONRPC_VERSION, id: request.id, result: result as Record<string, unknown> };
}

function errorResponse(request: JSONRPCRequest, error: unknown): JSONRPCResponse {
  return { jsonrpc: JSONRPC_VERSION, id: request.id, error: toErrorObject(error) };
}

/**
 * Validates and delivers a notification. Throws `McpError(InvalidParams)` when the params fail the
 * schema; returns whatever the handler returned (maybe a promise) for the caller to watch.
 */
export function runNotificationHandler(
  entry: NotificationHandlerEntry,
  notification: JSONRPCNotification,
  extra: MessageExtraInfo | undefined,
): unknown {
  return callWithParams(entry, notification, extra);
}

/**
 * What {@link parseParams} needs of a schema: a zod schema, or anything with the same `safeParse`; `P` is
 * the type of the params it parses to.
 */
export interface ParamsParser<P = unknown> {
  safeParse(value: unknown): { success: true; data: P } | { success: false; error: z.ZodError };
}

/**
 * A message's params, checked: absent params count as `{}`, a value the schema's fast check accepts is
 * used as is (see `fastAccepts`: the schema is not even built), anything else goes through the schema,
 * and params that fail it throw `McpError(InvalidParams)` naming the method and the first issues. With a
 * deferred schema (`deferredSchema`) not loaded yet, a value its check refuses gets a promise of that
 * outcome instead (the schema loads first).
 *
 * @example
 * ```ts
 * const params = parseParams(InitializeRequestParamsSchema, request.params, 'initialize');
 * ```
 */
export function parseParams(
  schema: ParamsParser | undefined,
  params: Record<string, unknown> | undefined,
  method: string,
): unknown {
  // Absent params count as {}: most MCP methods make params optional (e.g. tools/list).
  const value = params ?? {};
  if (schema === undefined || fastAccepts(schema, value)) return value;
  const ready = schemaOrLoad(schema);
  if (isThenable(ready)) return ready.then((loaded) => checkedParams(loaded, value, method));
  return checkedParams(ready, value, method);
}

function checkedParams(schema: ParamsParser, value: Record<string, unknown>, method: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(parsed.error)}`);
}

/** The wire form of a failure: an McpError as is, anything else -32603 with its message, never a stack. */
export function toErrorObject(error: unknown): JSONRPCErrorObject {
  if (error instanceof McpError) return error.toJSON();
  const message = error instanceof Error && error.message !== '' ? error.message : 'Internal error';
  return { code: ErrorCode.InternalError, message };
}
