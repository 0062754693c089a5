import type { JSONRPCMessage } from '../jsonrpc.js';
import type { MessageExtraInfo, Transport } from '../transport.js';

/**
 * Hands a received message to `transport.onmessage`. A handler that throws is reported (by default to
 * `onerror`, as an `Error`) instead of unwinding into whatever is delivering: a socket's data event, a
 * decode loop with more messages in the same chunk, an HTTP request that was already accepted.
 *
 * @example
 * ```ts
 * socket.on('message', (data) => deliverMessage(transport, parseMessage(String(data))));
 * ```
 */
export function deliverMessage(
  transport: Pick<Transport, 'onmessage' | 'onerror'>,
  message: JSONRPCMessage,
  extra?: MessageExtraInfo,
  report?: (error: unknown) => void,
): void {
  try {
    transport.onmessage?.(message, extra);
  } catch (error) {
    if (report !== undefined) report(error);
    else transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
