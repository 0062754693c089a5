import type { McpError } from '@x/protocol/core';
import { type CorsPolicy, jsonRpcErrorText, LazyResponse } from '@x/protocol/http';

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Stops nginx from buffering the stream, which would delay every event until the buffer fills.
  'x-accel-buffering': 'no',
};

/** What the legacy SSE endpoint admits cross-origin (the `cors` option). */
export const SSE_CORS: CorsPolicy = {
  allowMethods: 'GET, POST, OPTIONS',
  // A browser reads `WWW-Authenticate` of a 401 to start authorization.
  exposeHeaders: 'WWW-Authenticate',
  allowHeaders: 'Content-Type, Accept, Authorization, MCP-Protocol-Version, Last-Event-ID',
};

/** The answer to every POST that was taken: the message's own answer comes on the event stream. */
export function accepted(): LazyResponse {
  return new LazyResponse(202, { 'content-type': 'text/plain' }, 'Accepted');
}

/**
 * A transport-level rejection: the body is a JSON-RPC error without an id (2025-11-25 transports: "The
 * HTTP response body MAY comprise a JSON-RPC error response that has no id"), as `jsonRpcErrorResponse`
 * builds it.
 */
export function errorReply(
  status: number,
  code: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): LazyResponse {
  return new LazyResponse(
    status,
    Object.assign({}, headers, { 'content-type': 'application/json' }),
    jsonRpcErrorText(code, message),
  );
}

/**
 * A 400 for a body that is not one usable message. The request's id is echoed when it was readable
 * (`McpError.data.id`, set by `validateMessage`): JSON-RPC 2.0 §5 answers with null only "if there was
 * an error in detecting the id".
 */
export function invalidMessageReply(error: McpError): LazyResponse {
  const id = (error.data as { id?: unknown } | undefined)?.id;
  const init = typeof id === 'string' || typeof id === 'number' ? { id } : {};
  return new LazyResponse(
    400,
    { 'content-type': 'application/json' },
    jsonRpcErrorText(error.code, error.message, init),
  );
}
