import { ConnectionClosedError, ErrorCode } from '../errors.js';
import { JSONRPC_VERSION, type JSONRPCResponse, type RequestId } from '../jsonrpc.js';

/** Longest id text quoted back in an error message: a hostile peer's megabyte id is not echoed whole. */
const MAX_ID_TEXT = 64;

/**
 * The error response that replaces a response the transport could not send because JSON cannot encode
 * it (a BigInt, a cycle, a throwing `toJSON`), or undefined when the failure had another cause (the
 * connection closed, the stream went away). Runs only after a send failed: the everyday path never
 * serializes anything twice. The replacement holds nothing but strings, so its own send cannot fail
 * for the same reason (and the engine does not retry it if it fails for another).
 *
 * @example
 * ```ts
 * const replacement = unsendableResponse({ jsonrpc: '2.0', id: 1, result: { n: 1n } }, 'tools/call', error);
 * // { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Result of tools/call could not be serialized: …' } }
 * ```
 */
export function unsendableResponse(
  response: JSONRPCResponse,
  method: string,
  failure: unknown,
): JSONRPCResponse | undefined {
  if (failure instanceof ConnectionClosedError) return undefined;
  const isResult = 'result' in response;
  try {
    JSON.stringify(isResult ? response.result : response.error);
    return undefined; // it encodes: the send failed for another reason
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const what = isResult ? `Result of ${method}` : `Error response to ${method}`;
    return {
      jsonrpc: JSONRPC_VERSION,
      id: response.id,
      error: { code: ErrorCode.InternalError, message: `${what} could not be serialized: ${reason}` },
    };
  }
}

/**
 * -32600 for a request whose id is still in flight (JSON-RPC 2.0: ids identify requests; MCP basic:
 * "The request ID MUST NOT have been previously used by the requestor within the same session").
 */
export function duplicateIdResponse(id: RequestId): JSONRPCResponse {
  const message = `Duplicate request id ${describeId(id)}: a request with this id is still in flight`;
  return { jsonrpc: JSONRPC_VERSION, id, error: { code: ErrorCode.InvalidRequest, message } };
}

/** An id (or progress token) as a message quotes it: long ones cut. */
export function describeId(id: RequestId | null | undefined): string {
  const text = String(id);
  return text.length <= MAX_ID_TEXT ? text : `${text.slice(0, MAX_ID_TEXT)}… (${text.length} characters)`;
}
