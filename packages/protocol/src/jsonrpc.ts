import { ErrorCode, McpError } from './errors.js';

/**
 * JSON-RPC 2.0 envelope types shared by every MCP revision, and the cheap hand-written envelope check
 * that runs on every incoming message before any per-method schema (DESIGN §3: envelope first).
 */

export const JSONRPC_VERSION = '2.0' as const;

export type RequestId = string | number;
export type ProgressToken = string | number;

/** Free-form `_meta` object; keys follow the spec's reverse-DNS naming rules. */
export type MetaObject = Record<string, unknown>;

export interface JSONRPCRequest {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: Record<string, unknown> | undefined;
}

export interface JSONRPCNotification {
  jsonrpc: typeof JSONRPC_VERSION;
  method: string;
  params?: Record<string, unknown> | undefined;
}

export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  /** Absent (or null on the wire) only when the request id could not be read, e.g. a parse error. */
  id?: RequestId | null | undefined;
  error: JSONRPCErrorObject;
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

export function isJSONRPCRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

export function isJSONRPCNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return 'method' in message && !('id' in message);
}

export function isJSONRPCResultResponse(message: JSONRPCMessage): message is JSONRPCResultResponse {
  return 'result' in message;
}

export function isJSONRPCErrorResponse(message: JSONRPCMessage): message is JSONRPCErrorResponse {
  return 'error' in message;
}

export function isJSONRPCResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return 'result' in message || 'error' in message;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function invalid(message: string, id?: unknown): McpError {
  return new McpError(ErrorCode.InvalidRequest, message, isRequestId(id) ? { id } : undefined);
}

/**
 * Checks that a decoded value is one JSON-RPC 2.0 message (no batch) and returns it typed.
 * Throws `McpError(InvalidRequest)` otherwise; `error.data.id` carries the request id when one was
 * readable, so the caller can answer the request that was malformed.
 */
export function validateMessage(value: unknown): JSONRPCMessage {
  if (!isPlainObject(value)) throw invalid('JSON-RPC message must be an object');
  if (value['jsonrpc'] !== JSONRPC_VERSION) throw invalid('jsonrpc must be "2.0"', value['id']);
  const method = value['method'];
  if (method !== undefined) {
    if (typeof method !== 'string') throw invalid('method must be a string', value['id']);
    const params = value['params'];
    if (params !== undefined && !isPlainObject(params)) {
      throw invalid('params must be an object', value['id']);
    }
    if ('id' in value && !isRequestId(value['id'])) throw invalid('id must be a string or a number');
    return value as unknown as JSONRPCMessage;
  }
  if ('result' in value) {
    if (!isRequestId(value['id'])) throw invalid('response id must be a string or a number');
    if (!isPlainObject(value['result'])) throw invalid('result must be an object', value['id']);
    if ('error' in value) throw invalid('response must not carry both result and error', value['id']);
    return value as unknown as JSONRPCMessage;
  }
  if ('error' in value) {
    const id = value['id'];
    if (id !== undefined && id !== null && !isRequestId(id)) throw invalid('response id is invalid');
    const error = value['error'];
    if (!isPlainObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string') {
      throw invalid('error must be an object with a numeric code and a string message', id);
    }
    return value as unknown as JSONRPCMessage;
  }
  throw invalid('not a request, notification or response', value['id']);
}

/**
 * Decodes one serialized message. Throws `McpError(ParseError)` for text that is not JSON and
 * `McpError(InvalidRequest)` for JSON that is not a JSON-RPC message.
 */
export function parseMessage(text: string): JSONRPCMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new McpError(ErrorCode.ParseError, 'Parse error: message is not valid JSON', undefined, { cause });
  }
  return validateMessage(value);
}

/** Serializes one message for a text-based transport. */
export function serializeMessage(message: JSONRPCMessage): string {
  return JSON.stringify(message);
}
