import type { JSONRPCMessage, TransportSendOptions } from '@x/protocol/core';
import type { WireSocket } from './wire-socket.js';

/**
 * Serializes and sends one message, or the answers to a 2025-03-26 batch as one array frame. A message
 * JSON cannot hold (a BigInt, a cycle) becomes a rejected promise rather than a synchronous throw, as the
 * Transport contract asks of `send()`.
 */
export function sendMessage(
  wire: WireSocket,
  message: JSONRPCMessage | readonly JSONRPCMessage[],
  options?: TransportSendOptions,
): Promise<void> {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    return Promise.reject(error);
  }
  return wire.send(text, message, options);
}
