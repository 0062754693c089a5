import {
  type AuthInfo,
  ErrorCode,
  type JSONRPCRequest,
  McpError,
  type RequestContext,
  ResultType,
} from '@x/protocol/core';
import { isThenable, methodsOf, parseParams } from '@x/protocol/internal';
import { principalOf } from '@x/protocol/http';
import type { ServerCore } from '../server-core.js';
import { ServerContext } from '../server-context.js';
import type { SessionState } from '../session/session-state.js';
import { MODERN_REVISION, STANDARD_CLIENT_METHODS } from '../standard-methods.js';
import { discover } from './discover.js';
import { InputRound } from './input-round.js';
import { ModernBinding } from './modern-binding.js';
import type { RequestBinding } from './request-state.js';

/** spec 2026-07-28 basic/patterns/mrtr "Supported Requests". */
const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** spec 2026-07-28 server/utilities/caching "Cacheable Results". */
const CACHEABLE: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

const EMPTY: Record<string, unknown> = {};
/** `endRound`'s failure when the handler returned (whatever it returned, `undefined` included). */
const SUCCEEDED: unique symbol = Symbol('succeeded');

/**
 * A 2026-07-28 request: methods the revision removed are -32601 (before anything else, so a legacy
 * `initialize` hears that first), then `_meta` is validated (missing fields -32602, unknown version
 * -32022), and every result gets `resultType` (basic/index
 * "Responses"), the server's identity in `_meta` and, when cacheable, a cache hint.
 *
 * Not `async`: a synchronous handler's result is completed in the same turn, and a promise is made only
 * where something is awaited (the engine accepts a value or a promise, and turns a throw into an error
 * response). A modern `tools/call` makes 3 promises here instead of 8.
 */
export function serveModern(
  core: ServerCore,
  session: SessionState,
  request: JSONRPCRequest,
  engineCtx: RequestContext,
): object | Promise<object> {
  const method = request.method;
  const params = request.params ?? EMPTY;
  const tasks = core.tasks?.extension;
  if (STANDARD_CLIENT_METHODS.has(method) && !methodsOf(MODERN_REVISION).clientRequests.has(method)) {
    // `tasks/get|update|cancel` come back with the tasks extension (SEP-2663); `tasks/result` and
    // `tasks/list` stay removed ("clients calling it MUST receive -32601").
    if (tasks === undefined || !tasks.serves(method)) throw removed(core, method);
  }
  const meta = params['_meta'];
  const binding = new ModernBinding(
    core,
    typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : EMPTY,
  );
  if (method === 'server/discover') return discover(core);
  if (method === 'subscriptions/listen') {
    return session.subscriptions.listen(request, engineCtx, binding.clientCapabilities);
  }
  if (tasks?.serves(method) === true) {
    return tasks
      .handle(method, params, binding.clientCapabilities, engineCtx.authInfo)
      .then((value) => complete(core, method, value));
  }
  const ctx = new ServerContext(
    session.session,
    engineCtx,
    binding,
    tasks?.scope(binding.clientCapabilities),
  );
  if (!INPUT_METHODS.has(method)) {
    const route = core.route(method);
    const result = route.handler(parseParams(route.schema, params, method), ctx);
    return isThenable(result)
      ? result.then((value) => complete(core, method, value))
      : complete(core, method, result);
  }
  return runRound(core, { method, params, ctx, binding });
}

/** -32601 for a method 2026-07-28 removed. */
function removed(core: ServerCore, method: string): McpError {
  // spec basic/versioning: an error to `initialize` SHOULD name the versions the server supports.
  const data = method === 'initialize' ? { supported: core.supportedVersions } : undefined;
  return new McpError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} (removed in ${MODERN_REVISION})`,
    data,
  );
}

interface Round {
  method: string;
  params: Record<string, unknown>;
  ctx: ServerContext;
  binding: ModernBinding;
}

/** One round of a multi round-trip request; see `InputRound` for the model. */
function runRound(core: ServerCore, round: Round): object | Promise<object> {
  const { method, params, ctx } = round;
  const state = params['requestState'];
  const responses = params['inputResponses'];
  if (state !== undefined && typeof state !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, 'requestState must be a string');
  }
  if (
    responses !== undefined &&
    (typeof responses !== 'object' || responses === null || Array.isArray(responses))
  ) {
    throw new McpError(ErrorCode.InvalidParams, 'inputResponses must be an object');
  }
  const target = bindingOf(method, params, ctx.authInfo);
  const answers = responses as Record<string, unknown> | undefined;
  if (state === undefined) return playRound(core, round, target, new InputRound({}, answers));
  return core.requestStates
    .open(state, target)
    .then((earlier) => playRound(core, round, target, new InputRound(earlier, answers)));
}

/** Runs the handler with the round's answers at hand; see {@link endRound}. */
function playRound(
  core: ServerCore,
  { method, params, ctx, binding }: Round,
  target: RequestBinding,
  round: InputRound,
): object | Promise<object> {
  binding.round = round;
  let result: object | Promise<object>;
  try {
    const route = core.route(method);
    result = route.handler(parseParams(route.schema, params, method), ctx);
  } catch (error) {
    return endRound(core, method, target, round, undefined, error);
  }
  if (!isThenable(result)) return endRound(core, method, target, round, result, SUCCEEDED);
  return result.then(
    (value) => endRound(core, method, target, round, value, SUCCEEDED),
    (error: unknown) => endRound(core, method, target, round, undefined, error),
  );
}

/**
 * The handler is done: input it asked for turns the answer into an `input_required` result (whatever it
 * returned or threw meanwhile), otherwise its result or failure stands.
 */
function endRound(
  core: ServerCore,
  method: string,
  target: RequestBinding,
  round: InputRound,
  result: object | undefined,
  failure: unknown,
): object | Promise<object> {
  const pending = round.pending;
  if (pending !== undefined) {
    return core.requestStates.seal(target, round.answers).then((requestState) => {
      const out: Record<string, unknown> = {
        resultType: ResultType.InputRequired,
        inputRequests: pending,
        requestState,
      };
      if (core.serverInfoMeta !== undefined) out['_meta'] = core.serverInfoMeta;
      return out;
    });
  }
  if (failure !== SUCCEEDED) throw failure;
  return complete(core, method, result as object);
}

function bindingOf(
  method: string,
  params: Record<string, unknown>,
  auth: AuthInfo | undefined,
): RequestBinding {
  const target = method === 'resources/read' ? params['uri'] : params['name'];
  return {
    method,
    target: typeof target === 'string' ? target : '',
    arguments: params['arguments'] ?? {},
    // The one principal rule (client and user, JSON-encoded): a bare `sub` let the same user name at
    // another OAuth client, or a client named like a user, replay the state.
    principal: auth === undefined ? undefined : principalOf(auth),
  };
}

/** Adds what every complete 2026-07-28 result carries, on a copy (handlers may return shared objects). */
function complete(core: ServerCore, method: string, result: object): object {
  // The legacy path gets this check from the engine; here the result is read before the engine sees it.
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new McpError(ErrorCode.InternalError, `Handler for ${method} returned no result object`);
  }
  const source = result as Record<string, unknown>;
  const out: Record<string, unknown> = { resultType: ResultType.Complete, ...source };
  if (CACHEABLE.has(method) && source['ttlMs'] === undefined) {
    out['ttlMs'] = 0;
    out['cacheScope'] ??= 'private';
  }
  const info = core.serverInfoMeta;
  if (info !== undefined) {
    const meta = source['_meta'];
    out['_meta'] = meta === undefined ? info : { ...info, ...(meta as Record<string, unknown>) };
  }
  return out;
}
