import { ErrorCode, McpError } from '@x/protocol/core';

/**
 * `send()` refused a message because the connection already holds too many unsent bytes: the peer reads
 * slower than we write. The message was not queued; the connection stays open.
 *
 * @example
 * ```ts
 * try {
 *   await transport.send(message);
 * } catch (error) {
 *   if (error instanceof SendBufferFullError) await slowDown();
 * }
 * ```
 */
export class SendBufferFullError extends McpError {
  override readonly name = 'SendBufferFullError';
  /** The configured `maxBufferedBytes`. */
  readonly limit: number;
  /** Unsent bytes at the moment the message was refused. */
  readonly bufferedAmount: number;

  constructor(limit: number, bufferedAmount: number) {
    super(
      ErrorCode.InternalError,
      `WebSocket send buffer is full (${bufferedAmount} unsent bytes, limit ${limit}); message not sent`,
      { limit, bufferedAmount },
    );
    this.limit = limit;
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
