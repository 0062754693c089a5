import { ErrorCode } from '@x/protocol/core';
import { type JsonRpcErrorResponseInit, jsonRpcErrorText, LazyResponse } from '@x/protocol/http';
import type { SseWriter } from './sse-writer.js';

/**
 * A JSON-RPC error as an HTTP reply: `jsonRpcErrorResponse` of `@x/protocol/http`, as a `LazyResponse`,
 * so the `node:http` entry never builds a platform `Response`.
 */
export function errorResponse(
  status: number,
  code: number,
  message: string,
  init: JsonRpcErrorResponseInit = {},
): LazyResponse {
  return jsonResponse(status, jsonRpcErrorText(code, message, init), init.headers);
}

/** 400 with the generic "invalid request" code, for malformed transport usage. */
export function badRequest(message: string, headers?: Record<string, string>): LazyResponse {
  return errorResponse(400, ErrorCode.InvalidRequest, `Bad Request: ${message}`, { headers });
}

const SESSION_NOT_FOUND_CODE = -32001;

/** 404 for a session the server does not (or no longer) know (2025-11-25 "Session Management" 3). */
export function sessionNotFound(): LazyResponse {
  // -32001 is what the official SDK answers here; clients in the wild key on the 404, not the code.
  return errorResponse(404, SESSION_NOT_FOUND_CODE, 'Session not found');
}

/** 405 with the `Allow` header RFC 9110 §15.5.6 requires. */
export function methodNotAllowed(allow: string): LazyResponse {
  return errorResponse(405, ErrorCode.InvalidRequest, 'Method Not Allowed', { headers: { allow } });
}

/** 202 Accepted with no body: the answer to notifications and responses. */
export function accepted(headers?: Record<string, string>): LazyResponse {
  return emptyResponse(202, headers);
}

/** A reply with no body (200 to a DELETE, say). */
export function emptyResponse(status: number, headers?: Record<string, string>): LazyResponse {
  return new LazyResponse(status, headers === undefined ? {} : { ...headers });
}

// Header records are merged with `Object.assign`: on Node 20 a literal that spreads and then adds keys,
// `{ ...headers, 'content-type': … }`, takes V8's slow path (~0.35 µs per response against ~0.03).
const JSON_CONTENT_TYPE = { 'content-type': 'application/json' } as const;

/** A response with a JSON body (already serialized); `headers` may add e.g. `Mcp-Session-Id`. */
export function jsonResponse(status: number, json: string, headers?: Record<string, string>): LazyResponse {
  return new LazyResponse(status, Object.assign({}, headers, JSON_CONTENT_TYPE), json);
}

/** Headers every SSE response carries (2026-07-28 streamable-http: `X-Accel-Buffering: no` for proxies). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/**
 * A `Response` streaming `writer`, with the SSE headers plus `headers`.
 *
 * @example
 * ```ts
 * return sseResponse(writer, { 'mcp-session-id': sessionId });
 * ```
 */
export function sseResponse(writer: SseWriter, headers?: Record<string, string>): LazyResponse {
  // Object.assign, not `{ ...SSE_HEADERS, ...headers }` (two spreads: V8's slow path on Node 20).
  return new LazyResponse(200, Object.assign({}, SSE_HEADERS, headers), writer);
}
