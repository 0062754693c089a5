import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isJSONRPCRequest,
  isLegacyProtocolVersion,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@x/protocol';
import { HEADER, SSE_MEDIA_TYPE } from '../../shared/headers.js';
import { acceptsAll, jsonRpcErrorResponse } from '@x/protocol/http';
import type { EndpointState } from '../endpoint-state.js';
import { badRequest, methodNotAllowed, sessionNotFound } from '../http-responses.js';
import type { HttpIncoming } from '../http-incoming.js';
import { RequestTransport } from '../request-transport.js';
import { LegacySessionTransport } from './session-transport.js';

// Batches exist only in this revision (2025-03-26 transports: "An array batching one or more requests
// and/or notifications"); 2025-06-18 removed them.
const BATCH_VERSION = '2025-03-26';

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
  body: JSONRPCMessage | readonly JSONRPCMessage[],
  extra: MessageExtraInfo,
): Promise<Response> {
  const header = request.headers.get(HEADER.protocolVersion);
  const versionError = checkVersion(state, header);
  if (versionError !== undefined) return versionError;
  const batch = Array.isArray(body);
  const messages: readonly JSONRPCMessage[] = batch ? body : [body as JSONRPCMessage];
  const initialize = messages.some((m) => isJSONRPCRequest(m) && m.method === 'initialize');
  if (batch && initialize) {
    // 2025-03-26 lifecycle: "The initialize request MUST NOT be part of a JSON-RPC batch".
    return badRequest('initialize must not be part of a JSON-RPC batch');
  }

  if (!state.sessionsEnabled) {
    if (batch && (header ?? BATCH_VERSION) !== BATCH_VERSION) return batchRefused();
    const transport = new RequestTransport({
      era: 'legacy',
      // No session carries the handshake's outcome, so each request stands for an initialized one of
      // the version it declares (spec: a missing header means 2025-03-26). initialize itself needs none.
      statelessLegacyVersion: initialize ? undefined : (header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION),
      json: state.settings.json,
      keepAliveMs: state.settings.keepAliveMs,
      onFinished: () => state.live.delete(transport),
    });
    state.live.add(transport);
    const failed = await state.connect(transport);
    if (failed !== undefined) return failed;
    return transport.handle({ messages, extra, batch, longLived: false, signal: request.signal });
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
      onFinished: () => state.sessions.delete(sessionId),
    });
    state.sessions.add(session);
    const failed = await state.connect(session);
    if (failed !== undefined) return failed;
    return session.handlePost(messages, { extra, batch: false });
  }

  const session = lookupSession(state, request);
  if (session instanceof Response) return session;
  if (batch && (header ?? session.protocolVersion ?? BATCH_VERSION) !== BATCH_VERSION) return batchRefused();
  return session.handlePost(messages, { extra, batch });
}

function batchRefused(): Response {
  return badRequest(`JSON-RPC batches are only allowed in protocol version ${BATCH_VERSION}`);
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
    return jsonRpcErrorResponse(406, -32600, 'Not Acceptable: the client must accept text/event-stream');
  }
  const session = lookupSession(state, request);
  if (session instanceof Response) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  return session.handleGet(request.headers.get(HEADER.lastEventId), extra);
}

/** DELETE: the client ends its session (2025-11-25 "Session Management" 5). */
export async function handleLegacyDelete(state: EndpointState, request: HttpIncoming): Promise<Response> {
  if (!state.sessionsEnabled) return methodNotAllowed('POST');
  const session = lookupSession(state, request);
  if (session instanceof Response) return session;
  const versionError = checkVersion(state, request.headers.get(HEADER.protocolVersion));
  if (versionError !== undefined) return versionError;
  await session.close();
  return new Response(null, { status: 200 });
}
