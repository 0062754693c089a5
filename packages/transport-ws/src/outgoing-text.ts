import { type JSONRPCMessage, serializeMessage } from '@x/protocol';
import type { WireSocket } from './wire-socket.js';

/**
 * Serializes and sends one message. A message JSON cannot hold (a BigInt, a cycle) becomes a rejected
 * promise rather than a synchronous throw, as the Transport contract asks of `send()`.
 */
export function sendMessage(wire: WireSocket, message: JSONRPCMessage): Promise<void> {
  let text: string;
  try {
    text = serializeMessage(message);
  } catch (error) {
    return Promise.reject(error);
  }
  return wire.send(text);
}
