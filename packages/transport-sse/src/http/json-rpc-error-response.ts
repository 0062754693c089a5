import type { JSONRPCErrorResponse } from '@x/protocol';

/**
 * An HTTP response whose body is a JSON-RPC error without an id, the form the spec allows for
 * transport-level rejections (2025-11-25 transports: "a JSON-RPC error response that has no id").
 *
 * @example
 * ```ts
 * return jsonRpcErrorResponse(400, ErrorCode.ParseError, 'Parse error');
 * ```
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  init: { headers?: Record<string, string> } = {},
): Response {
  const body: JSONRPCErrorResponse = { jsonrpc: '2.0', id: null, error: { code, message } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...init.headers, 'content-type': 'application/json' },
  });
}
