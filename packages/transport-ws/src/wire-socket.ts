import type { JSONRPCMessage, TransportSendOptions } from '@x/protocol/core';

/**
 * One open WebSocket as the transports see it, whatever implements it (`ws` on Node, the global
 * `WebSocket` in browsers). Framing rules shared by both live behind it: text frames in, binary → 1003.
 */
export interface WireSocket {
  /**
   * Writes one text frame, the encoding of `message`; rejects with `SendBufferFullError` or
   * `ConnectionClosedError`. A frame that must wait for the socket to drain waits urgent first, by the
   * class and ordering key of `message` and `options` (issue #42).
   */
  send(
    text: string,
    message?: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void>;
  /** Starts the close handshake; resolves once the socket is gone (bounded by the close timeout). */
  close(code: number, reason: string): Promise<void>;
}

export interface WireSocketEvents {
  ontext(text: string): void;
  /** A fault worth reporting; the socket may close right after it. */
  onerror(error: Error): void;
  /** Fires once, whoever closed. 1006 when the socket vanished without a close frame. */
  onclose(code: number, reason: string): void;
}
