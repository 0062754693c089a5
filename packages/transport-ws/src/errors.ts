import { ErrorCode, McpError } from '@x/protocol/core';

/**
 * The peer stopped reading: the messages waiting for the socket to drain would pass `maxQueuedBytes`.
 * The connection ends (close code 1008, reason naming the option), every waiting `send()` rejects with
 * this error and the transport reports it through `onerror`; the peer's pending requests fail at once
 * with the close. A peer that reads, however slowly, never sees it: a burst waits for the socket to
 * drain instead (backpressure).
 *
 * @example
 * ```ts
 * transport.onerror = (error) => {
 *   if (error instanceof SendBufferFullError) log.warn(`dropped a client over ${error.limit} queued bytes`);
 * };
 * ```
 */
export class SendBufferFullError extends McpError {
  override readonly name = 'SendBufferFullError';
  /** The configured `maxQueuedBytes`. */
  readonly limit: number;
  /** Bytes that would have been waiting, counting the refused message. */
  readonly bufferedAmount: number;

  constructor(limit: number, bufferedAmount: number) {
    super(
      ErrorCode.InternalError,
      `WebSocket peer is not reading: ${bufferedAmount} bytes would wait to be sent, over maxQueuedBytes (${limit}); connection closed`,
      { limit, bufferedAmount },
    );
    this.limit = limit;
    this.bufferedAmount = bufferedAmount;
  }
}

/**
 * The peer stopped reading: messages waited to be sent and none left the socket for
 * `sendStallTimeoutMs`. The connection ends (close code 1008, reason naming the option), every waiting
 * `send()` rejects with this error and the transport reports it through `onerror`.
 *
 * @example
 * ```ts
 * transport.onerror = (error) => {
 *   if (error instanceof SendStalledError) log.warn(`client stalled for ${error.timeoutMs} ms`);
 * };
 * ```
 */
export class SendStalledError extends McpError {
  override readonly name = 'SendStalledError';
  /** The configured `sendStallTimeoutMs`. */
  readonly timeoutMs: number;
  /** Bytes the socket still held. */
  readonly bufferedAmount: number;

  constructor(timeoutMs: number, bufferedAmount: number) {
    super(
      ErrorCode.InternalError,
      `WebSocket peer is not reading: nothing was sent for sendStallTimeoutMs (${timeoutMs} ms) with ${bufferedAmount} bytes unsent; connection closed`,
      { timeoutMs, bufferedAmount },
    );
    this.timeoutMs = timeoutMs;
    this.bufferedAmount = bufferedAmount;
  }
}

/**
 * The server answered the WebSocket upgrade with an HTTP status instead of switching protocols
 * (e.g. 403 for a refused Origin, 400 when the `mcp` subprotocol was not offered), or, with status 0,
 * did not complete the opening handshake within the client's `handshakeTimeoutMs`.
 *
 * @example
 * ```ts
 * await transport.start().catch((error) => {
 *   if (error instanceof WebSocketHandshakeError && error.status === 401) promptForLogin();
 * });
 * ```
 */
export class WebSocketHandshakeError extends Error {
  override readonly name = 'WebSocketHandshakeError';
  readonly status: number;
  /**
   * The server's answer to the upgrade (status, headers such as `WWW-Authenticate`, the first 4 KiB of
   * the body), when it sent one: what `onUnauthorized`/`onForbidden` are handed. Node client only.
   */
  readonly response: Response | undefined;

  constructor(
    status: number,
    message = `WebSocket upgrade refused with HTTP ${status}`,
    response?: Response,
  ) {
    super(message);
    this.status = status;
    this.response = response;
  }
}
