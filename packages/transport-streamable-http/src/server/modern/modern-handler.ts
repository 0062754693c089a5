import {
  ErrorCode,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  McpError,
  type MessageExtraInfo,
} from '@x/protocol';
import { HEADER } from '../../shared/headers.js';
import type { EndpointState } from '../endpoint-state.js';
import { jsonRpcErrorResponse } from '../http-responses.js';
import { RequestTransport } from '../request-transport.js';
import { validateModernHeaders } from './header-validation.js';

/**
 * A modern POST (2026-07-28 streamable-http): stateless, one message, headers mirrored from the body.
 * `Mcp-Session-Id` and `Last-Event-ID` are ignored ("Earlier Streamable HTTP Revisions").
 */
export async function handleModernPost(
  state: EndpointState,
  request: Request,
  message: JSONRPCMessage,
  extra: MessageExtraInfo,
): Promise<Response> {
  const id = isJSONRPCRequest(message) ? message.id : undefined;
  if (isJSONRPCResponse(message)) {
    // "The client MUST NOT send JSON-RPC responses."
    return jsonRpcErrorResponse(
      400,
      ErrorCode.InvalidRequest,
      'Bad Request: modern clients send no responses',
    );
  }
  const version = request.headers.get(HEADER.protocolVersion);
  if (version !== null && !state.supported.includes(version)) {
    // "it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError listing its
    // supported versions".
    return jsonRpcErrorResponse(400, ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      id,
      data: { supported: state.supported, requested: version },
    });
  }
  try {
    validateModernHeaders(request.headers, message, state.paramHeaders);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return jsonRpcErrorResponse(400, error.code, error.message, { id });
  }
  const transport: RequestTransport = new RequestTransport({
    era: 'modern',
    json: state.settings.json,
    keepAliveMs: state.settings.keepAliveMs,
    onFinished: () => state.live.delete(transport),
  });
  state.live.add(transport);
  const failed = await state.connect(transport);
  if (failed !== undefined) return failed;
  return transport.handle({
    messages: [message],
    extra,
    batch: false,
    // A subscriptions/listen response is a long-lived stream (2026-07-28 "Receiving Messages").
    longLived: 'method' in message && message.method === 'subscriptions/listen',
    signal: request.signal,
  });
}
