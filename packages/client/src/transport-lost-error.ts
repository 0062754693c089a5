import { ConnectionClosedError, ErrorCode, McpError } from '@x/protocol';

/**
 * A request was in flight on a transport that failed (a failover switch, a reconnect): its answer can
 * never arrive, and the request may or may not have run on the server. Raised when the retry policy did
 * not allow sending it again; `cause` holds the transport's own reason.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'transfer', arguments: { amount: 10 } });
 * } catch (error) {
 *   if (error instanceof TransportLostError) console.warn(`lost on ${error.transport}; check before repeating`);
 * }
 * ```
 */
export class TransportLostError extends ConnectionClosedError {
  override readonly name: string = 'TransportLostError';
  /** The name of the transport that was lost (a `FailoverTransport` target's `name`), when known. */
  readonly transport: string | undefined;

  constructor(message: string, options: { transport?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.transport = options.transport;
  }
}

/**
 * True for a request lost with a transport that is being re-established: a `TransportLostError`, or the
 * -32000 answer a reconnecting transport synthesizes for it (`data.reconnecting: true`, as the WebSocket
 * client with `reconnect` and the stdio client with `restart` send).
 */
export function isTransportLoss(error: unknown): boolean {
  if (error instanceof TransportLostError) return true;
  if (!(error instanceof McpError) || error.code !== ErrorCode.ConnectionClosed) return false;
  const data = error.data;
  return (
    typeof data === 'object' && data !== null && (data as { reconnecting?: unknown }).reconnecting === true
  );
}
