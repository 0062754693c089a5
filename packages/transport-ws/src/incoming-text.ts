import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  McpError,
  type ParseOptions,
  parseMessageOrBatch,
} from '@x/protocol/core';

/** A text frame that was not a usable message, with the error response it deserves. */
export class InvalidText {
  readonly error: McpError;
  readonly reply: JSONRPCErrorResponse;

  constructor(error: McpError) {
    this.error = error;
    const data = error.data;
    const id =
      typeof data === 'object' && data !== null && 'id' in data && isRequestId(data.id) ? data.id : null;
    this.reply = { jsonrpc: '2.0', id, error: { code: error.code, message: error.message } };
  }
}

/**
 * Decodes one text frame (one JSON-RPC message per frame, SEP-1288, or a 2025-03-26 batch: a JSON
 * array, returned undecided for `readBatch`). A frame that is not JSON, or not a JSON-RPC message,
 * yields the error response JSON-RPC 2.0 §5 asks for (`id` null when unreadable); the connection stays
 * open, since one bad message says nothing about the next. JSON nested deeper than `maxNestingDepth`
 * gets -32700 naming the limit before it is parsed. Returns the message itself on the hot path: no
 * wrapper object per frame (`options` is one object per transport).
 */
export function decodeText(text: string, options: ParseOptions): JSONRPCMessage | unknown[] | InvalidText {
  try {
    return parseMessageOrBatch(text, options);
  } catch (cause) {
    return new InvalidText(
      cause instanceof McpError
        ? cause
        : new McpError(ErrorCode.InternalError, 'Could not decode message', undefined, { cause }),
    );
  }
}

function isRequestId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}
