import { ConnectionClosedError } from '@x/protocol';

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
