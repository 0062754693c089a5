import type { JSONRPCErrorResponse, RequestId } from '../jsonrpc.js';

/**
 * Options for {@link jsonRpcErrorResponse}.
 *
 * @example
 * ```ts
 * const init: JsonRpcErrorResponseInit = { id: 7, data: { supported: ['2026-07-28'] } };
 * ```
 */
export interface JsonRpcErrorResponseInit {
  /** The request the error answers; omitted for transport-level rejections (the spec allows "no id"). */
  id?: RequestId | undefined;
  data?: unknown;
  headers?: Record<string, string> | undefined;
}

/**
 * An HTTP response whose body is a JSON-RPC error. Transport-level rejections carry no id
 * (2025-11-25 transports: "The HTTP response body MAY comprise a JSON-RPC error response that has no
 * id"); header-validation failures of 2026-07-28 answer the request's id.
 *
 * @example
 * ```ts
 * return jsonRpcErrorResponse(400, ErrorCode.HeaderMismatch, 'Mcp-Name does not match the body', { id: 1 });
 * ```
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  init: JsonRpcErrorResponseInit = {},
): Response {
  return new Response(jsonRpcErrorText(code, message, init), {
    status,
    headers: { ...init.headers, 'content-type': 'application/json' },
  });
}

/**
 * The body {@link jsonRpcErrorResponse} sends, as JSON text: for a server that writes its replies
 * without building a Web `Response` (a `node:http` entry, say).
 *
 * @example
 * ```ts
 * res.writeHead(404, { 'content-type': 'application/json' }).end(jsonRpcErrorText(-32001, 'Session not found'));
 * ```
 */
export function jsonRpcErrorText(
  code: number,
  message: string,
  init: Pick<JsonRpcErrorResponseInit, 'id' | 'data'> = {},
): string {
  const error = init.data === undefined ? { code, message } : { code, message, data: init.data };
  const body: JSONRPCErrorResponse = { jsonrpc: '2.0', id: init.id ?? null, error };
  return JSON.stringify(body);
}
