/**
 * The engine's handle on one outgoing request's own stream, on transports that have one per request
 * (Streamable HTTP): closed when the request is given up (its caller aborted, or it timed out), which on
 * 2026-07-28 is the cancellation. A transport learns of it the cheap way, by registering a callback
 * through `TransportSendOptions.onRequestCancel`; one that reads `requestSignal` instead (the official
 * SDK's name) gets an `AbortSignal`, made on first read. On Node an `AbortController` costs a few
 * microseconds per request, more than the rest of the engine's work for it.
 */
export class RequestStream {
  #controller: AbortController | undefined;
  #cancel: ((reason: unknown) => void) | undefined;
  #closed = false;
  #reason: unknown;

  /** Aborted when the request is given up. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#closed) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Registers what closes the stream on the wire (one callback); runs it at once if already closed. */
  onCancel(cancel: (reason: unknown) => void): void {
    if (this.#closed) cancel(this.#reason);
    else this.#cancel = cancel;
  }

  close(reason: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reason = reason;
    const cancel = this.#cancel;
    this.#cancel = undefined;
    this.#controller?.abort(reason);
    cancel?.(reason);
  }
}
