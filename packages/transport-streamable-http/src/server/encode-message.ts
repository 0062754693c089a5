import { ErrorCode, isJSONRPCResponse, type JSONRPCMessage } from '@x/protocol/core';
import { jsonRpcErrorText } from '@x/protocol/http';

/** What {@link encodeMessage} made of a message: its JSON text, and the encoding failure if there was one. */
export interface Encoded {
  text: string;
  /** Why the message itself could not be encoded (its text is then a -32603 error for its id). */
  error: Error | undefined;
}

const OK: { error: undefined } = { error: undefined };

/**
 * `JSON.stringify` of an outgoing message that never leaves a request unanswered: a response JSON cannot
 * encode (a BigInt, a cycle) becomes a -32603 error response for the same id, so the HTTP request that
 * waits for it still ends with exactly one answer (issue #24, item 9). Any other message that cannot be
 * encoded throws, which rejects its `send`.
 *
 * Returns a string when encoding worked (the hot path allocates nothing more), else an {@link Encoded}.
 */
export function encodeMessage(message: JSONRPCMessage): string | Encoded {
  try {
    return JSON.stringify(message);
  } catch (cause) {
    if (!isJSONRPCResponse(message) || message.id === undefined || message.id === null) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new Error(
      `The response to request ${String(message.id)} could not be encoded as JSON: ${reason}`,
      {
        cause,
      },
    );
    const text = jsonRpcErrorText(ErrorCode.InternalError, `Internal error: ${error.message}`, {
      id: message.id,
    });
    return { text, error };
  }
}

/** The text of an {@link encodeMessage} result. */
export function encodedText(encoded: string | Encoded): string {
  return typeof encoded === 'string' ? encoded : encoded.text;
}

/** The encoding failure of an {@link encodeMessage} result, if any. */
export function encodingError(encoded: string | Encoded): Error | undefined {
  return (typeof encoded === 'string' ? OK : encoded).error;
}
