import {
  BATCH_PROTOCOL_VERSION,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isJSONRPCRequest,
  isLegacyProtocolVersion,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  readBatch,
} from '@x/protocol';
import { HEADER, SSE_MEDIA_TYPE } from '../../shared/headers.js';
import { acceptsAll } from '@x/protocol/http';
import { type EndpointState, serveOnOwnTransport } from '../endpoint-state.js';
import { isReply } from '../deferred-body.js';
import {
  badRequest,
  emptyResponse,
  errorResponse,
  methodNotAllowed,
  sessionNotFound,
} from '../http-responses.js';
import type { HttpIncoming } from '../http-incoming.js';
import { LegacySessionTransport } from './session-transport.js';

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

function lookupSession(state: EndpointState, request: HttpIncoming): LegacySessionTransport | Response {
  const id = request.headers.get(HEADER.sessionId);
  // "Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id header
  // (other than initialization) with HTTP 400 Bad Request".
  if (id === null) return badRequest('Mcp-Session-Id header is required');
  return state.sessions.get(id) ?? sessionNotFound();
}

/** A legacy POST: one message or a 2025-03-26 batch, in a session or stateless. */
export async function handleLegacyPost(
  state: EndpointState,
  request: HttpIncoming,
  body: JSONRPCMessage | readonly unknown[],
  extra: MessageExtraInfo,
): Promise<Response> {
  const header = request.headers.get(HEADER.protocolVersion);
  const versionError = checkVersion(state, header);
  if (versionError !== undefined) return versionError;
  if (Array.isArray(body)) return handleBatch(state, request, body, header, extra);
  const message = body as JSONRPCMessage;
  const initialize = isJSONRPCRequest(message) && message.method === 'initialize';

  if (!state.sessionsEnabled) {
    // No session carries the handshake's outcome, so each request stands for an initialized one of
    // the version it declares (spec: a missing header means 2025-03-26). initialize itself needs none.
    const version = initialize ? undefined : (header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    return handleStateless(state, request, version, { messages: [message], errors: [] }, false, extra);
  }

  if (initialize) {
    const existing = request.headers.get(HEADER.sessionId);
    if (existing !== null) {
      return state.sessions.get(existing) === undefined
        ? sessionNotFound()
        : badRequest('session already initialized');
    }
    const sessionId = state.newSessionId();
    const session: LegacySessionTransport = new LegacySessionTransport({
      sessionId,
      tag: randomTag(),
      settings: state.settings,
      onFinished: state.sessions.forget,
    });
    state.sessions.add(session);
    const failed = await state.connect(session);
    if (failed !== undefined) return failed;
    return session.handlePost([message], { extra, batch: false, errors: [] });
  }

  const session = lookupSession(state, request);
  if (isReply(session)) return session;
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
): Promise<Response> {
  if (values.some(isInitializeRequest)) return badRequest('initialize must not be part of a JSON-RPC batch');
  if (!state.sessionsEnabled) {
    const reading = readBatch(values, { protocolVersion: header ?? BATCH_PROTOCOL_VERSION });
    if (!reading.ok) return batchRefused(reading.error);
    const version = header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    return handleStateless(state, request, version, reading, true, extra);
  }
  const session = lookupSession(state, request);
  if (isReply(session)) return session;
  const version = header ?? session.protocolVersion ?? BATCH_PROTOCOL_VERSION;
  const reading = readBatch(values, { protocolVersion: version });
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
): Promise<Response> {
  const { messages, errors } = post;
  return serveOnOwnTransport(state, 'legacy', statelessLegacyVersion, {
    messages,
    errors,
    extra,
    batch,
    longLived: false,
    client: request,
  });
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
): Promise<Response> {
  // Without sessions there is nothing to attach a GET stream to: "or else return HTTP 405".
  if (!state.sessionsEnabled) return methodNotAllowed('POST');
  if (!acceptsAll(request.headers.get(HEADER.accept), [SSE_MEDIA_TYPE])) {
    return errorResponse(406, -32600, 'Not Acceptable: the client must accept text/event-stream');
  }
  const session = lookupSession(state, request);
  if (isReply(session)) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  return session.handleGet(request.headers.get(HEADER.lastEventId), extra);
}

/** DELETE: the client ends its session (2025-11-25 "Session Management" 5). */
export async function handleLegacyDelete(state: EndpointState, request: HttpIncoming): Promise<Response> {
  if (!state.sessionsEnabled) return methodNotAllowed('POST');
  const session = lookupSession(state, request);
  if (isReply(session)) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  await session.close();
  return emptyResponse(200);
}
