import {
  BATCH_PROTOCOL_VERSION,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  eraOf,
  isJSONRPCRequest,
  isLegacyProtocolVersion,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  readBatch,
  type SessionRecord,
  type SessionStore as SharedSessionStore,
} from '@x/protocol/core';
import { HEADER, SSE_MEDIA_TYPE } from '../../shared/headers.js';
import { acceptsAll, LazyResponse } from '@x/protocol/http';
import { type Caller, type EndpointState, serveOnOwnTransport } from '../endpoint-state.js';
import {
  badRequest,
  emptyResponse,
  errorResponse,
  methodNotAllowed,
  sessionNotFound,
} from '../http-responses.js';
import type { HttpIncoming, SessionContext } from '@x/protocol/http';
import { LegacySessionTransport } from './session-transport.js';
import { scopeChallenge } from '../scope-challenge.js';
import { storeUnavailable } from '../store-unavailable.js';

function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** 400 for a version this server does not speak (2025-11-25 "Protocol Version Header"). */
function checkVersion(state: EndpointState, version: string | null): Response | undefined {
  if (version === null) return undefined;
  if (isLegacyProtocolVersion(version) && state.supported.includes(version)) return undefined;
  return badRequest(`Unsupported protocol version: ${version} (supported: ${state.supported.join(', ')})`);
}

/**
 * The session a request names, if it is the caller's. A session serves only the principal that opened
 * it: a valid credential of one's own plus someone else's session id must not reach that session's
 * streams (issue #24, item 1; legacy HTTP+SSE answers the same). Undefined when this process does not
 * hold the session but `sessionStore` may (see `adoptSession`).
 */
function lookupSession(
  state: EndpointState,
  request: HttpIncoming,
  caller: Caller,
): LegacySessionTransport | Response | undefined {
  const id = request.headers.get(HEADER.sessionId);
  // "Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id header
  // (other than initialization) with HTTP 400 Bad Request".
  if (id === null) return badRequest('Mcp-Session-Id header is required');
  if (!state.isSessionId(id)) return sessionNotFound();
  const session = state.sessions.find(id);
  if (session === undefined) return state.sharedSessions === undefined ? sessionNotFound() : undefined;
  if (session.principal !== caller.principal) return forbiddenSession();
  state.sessions.markUsed(session);
  if (state.sharedSessions !== undefined) touchShared(state, state.sharedSessions, session);
  return session;
}

/** Keeps a busy session alive in `sessionStore` (its idle clock) while this process serves it. */
function touchShared(state: EndpointState, store: SharedSessionStore, session: LegacySessionTransport): void {
  const now = Date.now();
  if (now - session.sharedTouchedAt < SHARED_TOUCH_MS) return;
  session.sharedTouchedAt = now;
  store.update(session.sessionId, {}).catch(state.onerror);
}

const SHARED_TOUCH_MS = 10_000;

/**
 * A session another process opened (DESIGN §9: any process serves any request, no sticky sessions):
 * read from `sessionStore`, checked against the caller's principal, then held here like one of ours;
 * the server reads the handshake state from the same store when the transport connects. 404 when the
 * store does not know the session, 503 when the store fails.
 */
async function adoptSession(
  state: EndpointState,
  request: HttpIncoming,
  caller: Caller,
): Promise<LegacySessionTransport | Response> {
  const id = request.headers.get(HEADER.sessionId) as string;
  const pending = state.adopting.get(id);
  if (pending !== undefined) await pending.catch(() => undefined);
  const held = state.sessions.find(id);
  if (held !== undefined) return lookupSession(state, request, caller) as LegacySessionTransport | Response;
  const adoption = adopt(state, id, caller);
  state.adopting.set(id, adoption);
  try {
    return await adoption;
  } finally {
    state.adopting.delete(id);
  }
}

async function adopt(
  state: EndpointState,
  id: string,
  caller: Caller,
): Promise<LegacySessionTransport | Response> {
  const store = state.sharedSessions as SharedSessionStore;
  if (state.sharedReady !== undefined) await state.sharedReady;
  let record: SessionRecord | undefined;
  try {
    record = await store.get(id);
  } catch (error) {
    return storeFailed(state, error);
  }
  if (record === undefined) return sessionNotFound();
  if (record.principal !== caller.principal) return forbiddenSession();
  if (!state.sessions.makeRoom()) return sessionsFull(state);
  const session: LegacySessionTransport = new LegacySessionTransport({
    sessionId: id,
    tag: record.streamTag ?? randomTag(),
    settings: state.settings,
    principal: record.principal,
    onFinished: state.sessions.forget,
  });
  session.protocolVersion = record.protocolVersion;
  state.sessions.add(session);
  const failed = await state.connect(session, caller.context);
  return failed ?? session;
}

/** 503 when `sessionStore` fails (e.g. Redis is down): a clear error, never a hang. */
function storeFailed(state: EndpointState, error: unknown): Response {
  return storeUnavailable(state.onerror, error, 'session store');
}

function forbiddenSession(): Response {
  return errorResponse(403, ErrorCode.InvalidRequest, 'Forbidden: the session belongs to another principal');
}

/**
 * Whether the caller may open one more session now: 429 past `sessionRateLimit` for this caller, 503
 * when every one of `maxSessions` is busy (issue #24, item 2). Both with `Retry-After` (seconds).
 */
function refuseNewSession(state: EndpointState, caller: Caller): Response | undefined {
  const limiter = state.sessionRate;
  if (limiter !== undefined) {
    const waitMs = limiter.take(caller.key());
    if (waitMs > 0) {
      const message =
        `Too Many Requests: this client creates sessions faster than sessionRateLimit ` +
        `(${limiter.perSecond}/s, burst ${limiter.burst})`;
      return errorResponse(429, ErrorCode.InvalidRequest, message, {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
        data: { limit: 'sessionRateLimit', perSecond: limiter.perSecond, burst: limiter.burst },
      });
    }
  }
  if (state.sessions.makeRoom()) return undefined;
  return sessionsFull(state);
}

function sessionsFull(state: EndpointState): Response {
  const max = state.sessions.maxSessions;
  const message = `Service Unavailable: all maxSessions (${max}) sessions are busy (a stream open or a request in flight)`;
  return errorResponse(503, ErrorCode.InternalError, message, {
    headers: { 'retry-after': '1' },
    data: { limit: 'maxSessions', maxSessions: max },
  });
}

/** A legacy POST: one message or a 2025-03-26 batch, in a session or stateless. */
export async function handleLegacyPost(
  state: EndpointState,
  request: HttpIncoming,
  body: JSONRPCMessage | readonly unknown[],
  extra: MessageExtraInfo,
  caller: Caller,
): Promise<Response> {
  const header = request.headers.get(HEADER.protocolVersion);
  if (Array.isArray(body) && header !== null && eraOf(header) === 'modern') {
    // Batches are legacy only (2025-03-26 allowed them, later revisions removed them).
    return badRequest(`JSON-RPC batches are not allowed on ${header}; send one message per POST`);
  }
  const versionError = checkVersion(state, header);
  if (versionError !== undefined) return versionError;
  if (Array.isArray(body)) return handleBatch(state, request, body, header, extra, caller);
  const message = body as JSONRPCMessage;
  const forbidden = scopeChallenge(state.options, message, extra.authInfo);
  if (forbidden !== undefined) return forbidden;
  const initialize = isJSONRPCRequest(message) && message.method === 'initialize';

  if (!state.sessionsEnabled) {
    // No session carries the handshake's outcome, so each request stands for an initialized one of
    // the version it declares (spec: a missing header means 2025-03-26). initialize itself needs none.
    const version = initialize ? undefined : (header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    return handleStateless(
      state,
      request,
      version,
      { messages: [message], errors: [] },
      false,
      extra,
      caller.context,
    );
  }

  if (initialize) {
    const existing = request.headers.get(HEADER.sessionId);
    if (existing !== null) {
      const known = lookupSession(state, request, caller) ?? (await adoptSession(state, request, caller));
      return known instanceof LazyResponse ? known : badRequest('session already initialized');
    }
    const refused = refuseNewSession(state, caller);
    if (refused !== undefined) return refused;
    if (state.sharedReady !== undefined) await state.sharedReady;
    const sessionId = state.newSessionId();
    const tag = randomTag();
    if (state.sharedSessions !== undefined) {
      try {
        await state.sharedSessions.create(sessionId, { principal: caller.principal, streamTag: tag });
      } catch (error) {
        return storeFailed(state, error);
      }
    }
    const session: LegacySessionTransport = new LegacySessionTransport({
      sessionId,
      tag,
      settings: state.settings,
      principal: caller.principal,
      onFinished: state.sessions.forget,
    });
    state.sessions.add(session);
    const failed = await state.connect(session, caller.context);
    if (failed !== undefined) return failed;
    return session.handlePost([message], { extra, batch: false, errors: [] });
  }

  const session = lookupSession(state, request, caller) ?? (await adoptSession(state, request, caller));
  if (!(session instanceof LegacySessionTransport)) return session;
  return session.handlePost([message], { extra, batch: false, errors: [] });
}

/**
 * A 2025-03-26 batch. Refused whole with 400 (-32600) when it holds `initialize` ("The initialize request
 * MUST NOT be part of a JSON-RPC batch"), on any other version, or when it is too large; otherwise an
 * invalid element gets its own error in the reply, next to the responses to the valid requests (JSON-RPC
 * 2.0: "The Server should respond with an Array containing the corresponding Response objects").
 */
async function handleBatch(
  state: EndpointState,
  request: HttpIncoming,
  values: readonly unknown[],
  header: string | null,
  extra: MessageExtraInfo,
  caller: Caller,
): Promise<Response> {
  if (values.some(isInitializeRequest)) return badRequest('initialize must not be part of a JSON-RPC batch');
  if (!state.sessionsEnabled) {
    const reading = readBatch(values, {
      protocolVersion: header ?? BATCH_PROTOCOL_VERSION,
      maxBatchSize: state.options.maxBatchSize,
    });
    if (!reading.ok) return batchRefused(reading.error);
    const version = header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    return handleStateless(state, request, version, reading, true, extra, caller.context);
  }
  const session = lookupSession(state, request, caller) ?? (await adoptSession(state, request, caller));
  if (!(session instanceof LegacySessionTransport)) return session;
  const version = header ?? session.protocolVersion ?? BATCH_PROTOCOL_VERSION;
  const reading = readBatch(values, { protocolVersion: version, maxBatchSize: state.options.maxBatchSize });
  if (!reading.ok) return batchRefused(reading.error);
  return session.handlePost(reading.messages, { extra, batch: true, errors: reading.errors });
}

function handleStateless(
  state: EndpointState,
  request: HttpIncoming,
  statelessLegacyVersion: string | undefined,
  post: { messages: readonly JSONRPCMessage[]; errors: readonly JSONRPCErrorResponse[] },
  batch: boolean,
  extra: MessageExtraInfo,
  context: SessionContext,
): Promise<Response> {
  const { messages, errors } = post;
  return serveOnOwnTransport(
    state,
    'legacy',
    statelessLegacyVersion,
    {
      messages,
      errors,
      extra,
      batch,
      longLived: false,
      client: request,
    },
    context,
  );
}

function isInitializeRequest(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>)['method'] === 'initialize' &&
    'id' in value
  );
}

function batchRefused(refusal: JSONRPCErrorResponse): Response {
  return errorResponse(400, refusal.error.code, refusal.error.message);
}

/** GET: the standalone SSE stream of a session, or its resumption with `Last-Event-ID`. */
export async function handleLegacyGet(
  state: EndpointState,
  request: HttpIncoming,
  extra: MessageExtraInfo,
  caller: Caller,
): Promise<Response> {
  // Without sessions there is nothing to attach a GET stream to: "or else return HTTP 405".
  if (!state.sessionsEnabled) return methodNotAllowed('POST');
  if (!acceptsAll(request.headers.get(HEADER.accept), [SSE_MEDIA_TYPE])) {
    return errorResponse(406, -32600, 'Not Acceptable: the client must accept text/event-stream');
  }
  const session = lookupSession(state, request, caller) ?? (await adoptSession(state, request, caller));
  if (!(session instanceof LegacySessionTransport)) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  return session.handleGet(request.headers.get(HEADER.lastEventId), extra);
}

/** DELETE: the client ends its session (2025-11-25 "Session Management" 5). */
export async function handleLegacyDelete(
  state: EndpointState,
  request: HttpIncoming,
  caller: Caller,
): Promise<Response> {
  if (!state.sessionsEnabled) return methodNotAllowed('POST');
  const session = lookupSession(state, request, caller) ?? (await adoptSession(state, request, caller));
  if (!(session instanceof LegacySessionTransport)) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  await session.close();
  if (state.sharedSessions !== undefined) {
    try {
      await state.sharedSessions.delete(session.sessionId);
    } catch (error) {
      return storeFailed(state, error);
    }
  }
  return emptyResponse(200);
}
