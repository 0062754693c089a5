import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type ParseOptions,
  parseJsonText,
  type RequestId,
  validateMessage,
} from '@x/protocol/core';
import { type HttpIncoming, type LazyResponse, PayloadTooLargeError } from '@x/protocol/http';
import { errorResponse } from './http-responses.js';

/**
 * A POST body read and checked: one valid message, a batch whose elements `readBatch` checks once the
 * session's version is known, or the error answer (413 past `maxMessageBytes`, 400 for a body that is
 * not UTF-8, not JSON, too deeply nested or not a JSON-RPC message).
 */
export async function readMessages(
  request: HttpIncoming,
  maxMessageBytes: number,
  parse: ParseOptions,
): Promise<JSONRPCMessage | unknown[] | LazyResponse> {
  let text: string;
  try {
    text = await request.readText(maxMessageBytes);
  } catch (error) {
    if (error instanceof PayloadTooLargeError) {
      return errorResponse(
        413,
        ErrorCode.InvalidRequest,
        `Content Too Large: ${error.message} (maxMessageBytes)`,
      );
    }
    return errorResponse(400, ErrorCode.ParseError, 'Parse error: the body is not UTF-8');
  }
  let value: unknown;
  try {
    // Depth is checked before JSON.parse builds anything (issue #24, item 4).
    value = parseJsonText(text, parse);
  } catch (error) {
    const message =
      error instanceof McpError && error.data !== undefined
        ? error.message
        : 'Parse error: the body is not JSON';
    return errorResponse(400, ErrorCode.ParseError, message, {
      data: error instanceof McpError ? error.data : undefined,
    });
  }
  try {
    if (!Array.isArray(value)) return validateMessage(value);
    if (value.length === 0) throw new Error('An empty batch is not a JSON-RPC message');
    return value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // JSON-RPC 2.0 §5: the id is null only "if there was an error in detecting the id".
    const id = error instanceof McpError ? (error.data as { id?: RequestId } | undefined)?.id : undefined;
    return errorResponse(400, ErrorCode.InvalidRequest, `Invalid Request: ${message}`, { id });
  }
}
