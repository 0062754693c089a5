/**
 * The SSE stream did not yield a usable `endpoint` event: it named another origin, was malformed,
 * never came, or the stream ended first. `start()` rejects with it.
 *
 * @example
 * ```ts
 * try { await transport.start(); }
 * catch (error) { if (error instanceof SseEndpointError) console.error(error.message); }
 * ```
 */
export class SseEndpointError extends Error {
  override readonly name = 'SseEndpointError';
  /** The endpoint as the server sent it, when it sent one. */
  readonly endpoint: string | undefined;

  constructor(message: string, options: { endpoint?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.endpoint = options.endpoint;
  }
}
