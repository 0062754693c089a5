import {
  ErrorCode,
  type InitializeRequestParams,
  type InitializeResult,
  type JSONRPCRequest,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  type ProtocolVersion,
  type RequestContext,
} from '@x/protocol/core';
import {
  DeferredInitializeRequestParamsSchema,
  isThenable,
  methodsOf,
  negotiateLegacyVersion,
  parseParams,
} from '@x/protocol/internal';
import type { ServerCore } from '../server-core.js';
import { ServerContext } from '../server-context.js';
import type { SessionState } from '../session/session-state.js';
import { STANDARD_CLIENT_METHODS } from '../standard-methods.js';
import { TASKS_REVISION } from '../tasks/server-tasks.js';
import { describeValue } from '../describe-value.js';
import { LegacySessionState } from './legacy-session-state.js';
import { persisted } from './shared-session.js';

/**
 * The `initialize` handshake (spec ≤ 2025-11-25: basic/lifecycle). The server answers with the
 * client's version when it supports it, else with its newest legacy version ("Version Negotiation"),
 * and tells the transport, which needs it for headers and the 2025-03-26 batch rule.
 */
export function initializeLegacy(
  core: ServerCore,
  session: SessionState,
  request: JSONRPCRequest,
): InitializeResult | Promise<InitializeResult> {
  if (session.legacy !== undefined && !session.legacyAssumed) {
    throw new McpError(ErrorCode.InvalidRequest, 'The session is already initialized');
  }
  // The everyday params pass the schema's fast check: zod and the schema are not even loaded (see
  // `parseParams`); params the check refuses wait for the schema's verdict.
  const parsed = parseParams(DeferredInitializeRequestParamsSchema, request.params, 'initialize');
  if (isThenable(parsed)) {
    return Promise.resolve(parsed).then((params) =>
      beginLegacy(core, session, params as InitializeRequestParams),
    );
  }
  return beginLegacy(core, session, parsed as InitializeRequestParams);
}

function beginLegacy(
  core: ServerCore,
  session: SessionState,
  params: InitializeRequestParams,
): InitializeResult | Promise<InitializeResult> {
  const version = negotiateLegacyVersion(params.protocolVersion, core.legacyVersions);
  session.beginLegacy(new LegacySessionState(core, version, params.capabilities, params.clientInfo));
  session.transport?.setProtocolVersion?.(version);
  const result: InitializeResult = {
    protocolVersion: version,
    capabilities: core.capabilitiesFor(version),
    serverInfo: core.info,
  };
  if (core.instructions !== undefined) result.instructions = core.instructions;
  return persisted(core, session, result, (store, sessionId) =>
    store.update(sessionId, {
      protocolVersion: version,
      clientInfo: params.clientInfo,
      clientCapabilities: params.capabilities,
    }),
  );
}

/**
 * A request on a legacy session. Until `notifications/initialized` only `ping` is answered
 * (basic/lifecycle "Initialization": the client SHOULD NOT send other requests before it). Transports
 * keep that order: stdio is one stream, and a Streamable HTTP client awaits the notification's 202
 * before its next POST.
 */
export function serveLegacy(
  core: ServerCore,
  session: SessionState,
  request: JSONRPCRequest,
  engineCtx: RequestContext,
): object | Promise<object> {
  const method = request.method;
  const state = session.legacy;
  if (state === undefined) {
    if (method === 'ping' && core.servesLegacy) return {};
    throw notInitialized(core, method);
  }
  // With a shared sessionStore, notifications/initialized may have reached another process: the
  // handshake's answer was stored, which is as far as this process can tell.
  if (!state.initialized && method !== 'ping' && core.options.sessionStore === undefined) {
    throw new McpError(ErrorCode.InvalidRequest, `Received ${method} before notifications/initialized`);
  }
  if (STANDARD_CLIENT_METHODS.has(method)) {
    if (!methodsOf(state.protocolVersion as ProtocolVersion).clientRequests.has(method)) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (${state.protocolVersion})`);
    }
    if (method === 'ping') return {};
  }
  const params = request.params ?? {};
  if (method === 'logging/setLevel') return setLevel(core, session, state, params);
  if (method === 'resources/subscribe' || method === 'resources/unsubscribe') {
    return subscribe(core, session, state, method, params);
  }
  const tasks = core.tasks;
  if (tasks !== undefined && state.protocolVersion === TASKS_REVISION && tasks.serves(method)) {
    return tasks.handle(method, params, session.session, engineCtx);
  }
  const route = core.route(method);
  const scope =
    tasks !== undefined && state.protocolVersion === TASKS_REVISION
      ? tasks.scope(params, session.session)
      : undefined;
  return route.handler(
    parseParams(route.schema, params, method),
    new ServerContext(session.session, engineCtx, state, scope),
  );
}

function notInitialized(core: ServerCore, method: string): McpError {
  if (!core.servesModern) {
    return new McpError(ErrorCode.InvalidRequest, `Received ${method} before initialize`);
  }
  // A dual-era server cannot tell a modern request without _meta from a legacy one sent too early;
  // the modern rule (basic/index "_meta": missing fields are -32602) serves both readers.
  return new McpError(
    ErrorCode.InvalidParams,
    `Missing _meta "io.modelcontextprotocol/protocolVersion" (or send initialize first)`,
  );
}

function setLevel(
  core: ServerCore,
  session: SessionState,
  state: LegacySessionState,
  params: Record<string, unknown>,
): object | Promise<object> {
  if (core.capabilities.logging === undefined) {
    throw new McpError(ErrorCode.MethodNotFound, 'Method not found: logging/setLevel');
  }
  const level = params['level'];
  if (!(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid log level: ${describeValue(level)} (expected one of ${LOGGING_LEVELS.join(', ')})`,
    );
  }
  state.setLevel(level as LoggingLevel);
  return persisted(core, session, {}, (store, id) => store.update(id, { logLevel: level as LoggingLevel }));
}

function subscribe(
  core: ServerCore,
  session: SessionState,
  state: LegacySessionState,
  method: string,
  params: Record<string, unknown>,
): object | Promise<object> {
  if (core.capabilities.resources?.subscribe !== true) {
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  const uri = params['uri'];
  if (typeof uri !== 'string') throw new McpError(ErrorCode.InvalidParams, `${method} needs a string uri`);
  if (method === 'resources/unsubscribe') {
    state.unsubscribe(uri);
    return persisted(core, session, {}, (store, id) => store.removeSubscription(id, uri));
  }
  if (!state.isSubscribed(uri)) {
    if (state.subscriptionCount >= core.maxSubscriptions) {
      throw core.tooManySubscriptions(`Subscribing to ${uri.length > 200 ? `${uri.slice(0, 200)}…` : uri}`);
    }
    state.subscribe(uri);
  }
  return persisted(core, session, {}, (store, id) => store.addSubscription(id, uri));
}
