import {
  ErrorCode,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
  MetaKey,
} from '@x/protocol/core';
import { HEADER } from '../../shared/headers.js';
import { errorResponse } from '../http-responses.js';
import { type EndpointState, serveOnOwnTransport } from '../endpoint-state.js';
import type { HttpIncoming, SessionContext } from '@x/protocol/http';
import { validateModernHeaders } from './header-validation.js';
import { scopeChallenge } from '../scope-challenge.js';
import { refuseListenStream } from '../listen-streams.js';

/**
 * A modern POST (2026-07-28 streamable-http): stateless, one message, headers mirrored from the body.
 * `Mcp-Session-Id` and `Last-Event-ID` are ignored ("Earlier Streamable HTTP Revisions").
 */
export async function handleModernPost(
  state: EndpointState,
  request: HttpIncoming,
  message: JSONRPCMessage,
  extra: MessageExtraInfo,
  context: SessionContext,
): Promise<Response> {
  const id = isJSONRPCRequest(message) ? message.id : undefined;
  if (isJSONRPCResponse(message)) {
    // "The client MUST NOT send JSON-RPC responses."
    return errorResponse(400, ErrorCode.InvalidRequest, 'Bad Request: modern clients send no responses');
  }
  const version = request.headers.get(HEADER.protocolVersion);
  if (version !== null && !state.supported.includes(version)) {
    // "it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError listing its
    // supported versions".
    return errorResponse(400, ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      id,
      data: { supported: state.supported, requested: version },
    });
  }
  const envelopeError = isJSONRPCRequest(message) ? missingMetaField(message.params) : undefined;
  if (envelopeError !== undefined) {
    // basic/index "Request metadata": "A request missing any required field is malformed; the server
    // MUST reject it with JSON-RPC error code -32602 (Invalid params). On HTTP, the response status MUST
    // be 400 Bad Request." Checked here because only the transport knows it speaks HTTP.
    return errorResponse(400, ErrorCode.InvalidParams, envelopeError, { id });
  }
  try {
    validateModernHeaders(request.headers, message, state.paramHeaders);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return errorResponse(400, error.code, error.message, { id });
  }
  // After the header check: the method and name the headers carry are now those of the body.
  const forbidden = scopeChallenge(state.options, message, extra.authInfo);
  if (forbidden !== undefined) return forbidden;
  // A subscriptions/listen response is a long-lived stream (2026-07-28 "Receiving Messages").
  const longLived = 'method' in message && message.method === 'subscriptions/listen';
  if (longLived) {
    const full = refuseListenStream(state, id);
    if (full !== undefined) return full;
  }
  return serveOnOwnTransport(
    state,
    'modern',
    undefined,
    {
      messages: [message],
      extra,
      batch: false,
      longLived,
      client: request,
    },
    context,
  );
}

/** Why a modern request's `_meta` lacks a required field, or undefined when it has them all. */
function missingMetaField(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?.['_meta'];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return 'Invalid params: the request has no _meta object';
  }
  const fields = meta as Record<string, unknown>;
  if (typeof fields[MetaKey.ProtocolVersion] !== 'string') {
    return `Invalid params: _meta lacks "${MetaKey.ProtocolVersion}"`;
  }
  const capabilities = fields[MetaKey.ClientCapabilities];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    return `Invalid params: _meta lacks "${MetaKey.ClientCapabilities}"`;
  }
  return undefined;
}
