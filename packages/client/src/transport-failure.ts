import { ErrorCode, McpError } from '@x/protocol/core';

/**
 * How the client reads failures that did not come back as a JSON-RPC error response: an HTTP transport
 * throws from `send()` with a numeric `status` (and, when the body held one, the JSON-RPC error as
 * `rpcError`). These helpers duck-type that shape so `@x/client` imports no transport (DESIGN §4).
 */

/** Codes only a 2026-07-28+ server sends (spec 2026-07-28 basic/index, "Error Codes"). */
const MODERN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

interface RpcErrorLike {
  code: number;
  message: string;
  data?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isRpcError(value: unknown): value is RpcErrorLike {
  return isRecord(value) && typeof value['code'] === 'number' && typeof value['message'] === 'string';
}

/** The HTTP status a transport attached to `error` (looking through `cause` chains), if any. */
export function httpStatusOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isRecord(current); depth++) {
    const status = current['status'];
    if (typeof status === 'number' && status > 0) return status;
    current = current['cause'];
  }
  return undefined;
}

/**
 * The JSON-RPC error behind a failure: an `McpError` from an error response, or the `rpcError` an HTTP
 * transport parsed from a 4xx body. Local failures (timeouts, closed connections) count as none.
 */
export function wireErrorOf(error: unknown): McpError | undefined {
  if (error instanceof McpError) {
    return error.code === ErrorCode.ConnectionClosed || error.code === ErrorCode.RequestTimeout
      ? undefined
      : error;
  }
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isRecord(current); depth++) {
    const rpc = current['rpcError'];
    if (isRpcError(rpc)) return McpError.fromError(rpc);
    current = current['cause'];
  }
  return undefined;
}

/** True when `error` carries an error code by which a server identifies itself as modern. */
export function isModernServerError(error: unknown): boolean {
  const wire = wireErrorOf(error);
  return wire !== undefined && MODERN_CODES.has(wire.code);
}

/**
 * A failure at the transport level that means "nothing MCP-shaped answered here": an HTTP 4xx other than
 * 401/403 (auth must surface) whose body is no modern JSON-RPC error (spec 2025-11-25 transports,
 * "Backwards Compatibility": 400, 404 or 405 on the first POST → try the HTTP+SSE transport).
 */
export function isTransportLevelFailure(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) return false;
  return !isModernServerError(error);
}

/** The `supported` list of an `UnsupportedProtocolVersionError` (-32022), if `error` is one. */
export function supportedVersionsOf(error: unknown): readonly string[] | undefined {
  const wire = wireErrorOf(error);
  if (wire?.code !== ErrorCode.UnsupportedProtocolVersion || !isRecord(wire.data)) return undefined;
  const supported = wire.data['supported'];
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}
