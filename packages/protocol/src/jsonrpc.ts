import { ErrorCode, McpError } from './errors.js';
import { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from './json-depth.js';

/**
 * JSON-RPC 2.0 envelope types shared by every MCP revision, and the cheap hand-written envelope check
 * that runs on every incoming message before any per-method schema (DESIGN §3: envelope first).
 */

/**
 * The `jsonrpc` member every message carries.
 *
 * @example
 * ```ts
 * const note: JSONRPCNotification = { jsonrpc: JSONRPC_VERSION, method: 'notifications/initialized' };
 * ```
 */
export const JSONRPC_VERSION = '2.0' as const;

/**
 * A request's `id`: a string or a number, unique among the sender's pending requests.
 *
 * @example
 * ```ts
 * const pending = new Map<RequestId, (result: unknown) => void>();
 * ```
 */
export type RequestId = string | number;
/**
 * The `_meta.progressToken` a requester chooses to receive `notifications/progress` for a request.
 *
 * @example
 * ```ts
 * const token: ProgressToken = crypto.randomUUID();
 * const params = { name: 'index-repo', arguments: {}, _meta: { progressToken: token } };
 * ```
 */
export type ProgressToken = string | number;

/**
 * Free-form `_meta` object; keys follow the spec's reverse-DNS naming rules.
 *
 * @example
 * ```ts
 * const _meta: MetaObject = { progressToken: 1, 'com.example/trace-id': 'abc123' };
 * ```
 */
export type MetaObject = Record<string, unknown>;

/**
 * A message that expects a response with the same `id`.
 *
 * @example
 * ```ts
 * const request: JSONRPCRequest = {
 *   jsonrpc: '2.0',
 *   id: 1,
 *   method: 'tools/call',
 *   params: { name: 'echo', arguments: { text: 'hi' } },
 * };
 * ```
 */
export interface JSONRPCRequest {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * A one-way message: no `id`, never answered.
 *
 * @example
 * ```ts
 * const note: JSONRPCNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
 * ```
 */
export interface JSONRPCNotification {
  jsonrpc: typeof JSONRPC_VERSION;
  method: string;
  params?: Record<string, unknown> | undefined;
}

/**
 * A successful answer to the request with the same `id`.
 *
 * @example
 * ```ts
 * const response: JSONRPCResultResponse = {
 *   jsonrpc: '2.0',
 *   id: 1,
 *   result: { content: [{ type: 'text', text: 'hi' }] },
 * };
 * ```
 */
export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Record<string, unknown>;
}

/**
 * The `error` member of an error response; `McpError#toJSON()` produces it.
 *
 * @example
 * ```ts
 * const error: JSONRPCErrorObject = new McpError(
 *   ErrorCode.InvalidParams,
 *   'Unknown tool: frobnicate',
 * ).toJSON();
 * ```
 */
export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A failed answer to the request with the same `id`.
 *
 * @example
 * ```ts
 * const response: JSONRPCErrorResponse = {
 *   jsonrpc: '2.0',
 *   id: 1,
 *   error: { code: -32601, message: 'Method not found' },
 * };
 * ```
 */
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  /** Absent (or null on the wire) only when the request id could not be read, e.g. a parse error. */
  id?: RequestId | null | undefined;
  error: JSONRPCErrorObject;
}

/**
 * Either kind of response; narrow with `isJSONRPCResultResponse` / `isJSONRPCErrorResponse`.
 *
 * @example
 * ```ts
 * if (isJSONRPCErrorResponse(response)) console.error(response.error.message);
 * else console.log(response.result);
 * ```
 */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
/**
 * Any single JSON-RPC message a transport carries. (A 2025-03-26 batch is a JSON array of these; see
 * `readBatch`.)
 *
 * @example
 * ```ts
 * const message: JSONRPCMessage = parseMessage(line);
 * ```
 */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/**
 * Whether a message is a request (has both `method` and `id`).
 *
 * @example
 * ```ts
 * transport.onmessage = (message) => {
 *   if (isJSONRPCRequest(message)) console.log(`request ${message.id}: ${message.method}`);
 * };
 * ```
 */
export function isJSONRPCRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/**
 * Whether a message is a notification (has `method`, no `id`).
 *
 * @example
 * ```ts
 * if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
 *   console.log('cancelled', message.params?.['requestId']);
 * }
 * ```
 */
export function isJSONRPCNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return 'method' in message && !('id' in message);
}

/**
 * Whether a message is a successful response (has `result`).
 *
 * @example
 * ```ts
 * if (isJSONRPCResultResponse(message)) console.log(message.id, message.result);
 * ```
 */
export function isJSONRPCResultResponse(message: JSONRPCMessage): message is JSONRPCResultResponse {
  return 'result' in message;
}

/**
 * Whether a message is an error response (has `error`).
 *
 * @example
 * ```ts
 * if (isJSONRPCErrorResponse(message)) throw McpError.fromError(message.error);
 * ```
 */
export function isJSONRPCErrorResponse(message: JSONRPCMessage): message is JSONRPCErrorResponse {
  return 'error' in message;
}

/**
 * Whether a message is a response of either kind (has `result` or `error`).
 *
 * @example
 * ```ts
 * if (isJSONRPCResponse(message) && message.id != null) pending.get(message.id)?.();
 * ```
 */
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
 *
 * @example
 * ```ts
 * // A transport that receives already-decoded JSON (e.g. structured clone) still checks the envelope.
 * const message = validateMessage(JSON.parse(event.data));
 * ```
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
 *
 * @example
 * ```ts
 * try {
 *   const message = parseMessage(line);
 * } catch (error) {
 *   if (error instanceof McpError && error.code === ErrorCode.ParseError) console.error('not JSON:', line);
 * }
 * ```
 */
export function parseMessage(text: string, options?: ParseOptions): JSONRPCMessage {
  return validateMessage(parseJsonText(text, options));
}

/**
 * Limits applied while decoding one message's text.
 *
 * @example
 * ```ts
 * const options: ParseOptions = { maxNestingDepth: 32 };
 * const message = parseMessage(line, options);
 * ```
 */
export interface ParseOptions {
  /**
   * How deeply arrays and objects may nest; deeper text is refused with `McpError(ParseError)` before
   * `JSON.parse` builds it. Default `DEFAULT_MAX_NESTING_DEPTH` (128).
   */
  maxNestingDepth?: number | undefined;
}

/**
 * `JSON.parse`, failing with `McpError(ParseError)` for text that is not JSON or nests deeper than
 * `maxNestingDepth` (the error's `data` names the limit). Used by `parseMessage`, `parseMessageOrBatch`
 * and the HTTP handlers that read a body whole.
 *
 * @example
 * ```ts
 * const value = parseJsonText(body, { maxNestingDepth: 64 });
 * ```
 */
export function parseJsonText(text: string, options?: ParseOptions): unknown {
  const maxNestingDepth = options?.maxNestingDepth ?? DEFAULT_MAX_NESTING_DEPTH;
  if (exceedsNestingDepth(text, maxNestingDepth)) {
    throw new McpError(
      ErrorCode.ParseError,
      `Parse error: JSON nests deeper than maxNestingDepth (${maxNestingDepth})`,
      { limit: 'maxNestingDepth', maxNestingDepth },
    );
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new McpError(ErrorCode.ParseError, 'Parse error: message is not valid JSON', undefined, { cause });
  }
}

/**
 * Serializes one message for a text-based transport.
 *
 * @example
 * ```ts
 * socket.send(serializeMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }));
 * ```
 */
export function serializeMessage(message: JSONRPCMessage): string {
  return JSON.stringify(message);
}
