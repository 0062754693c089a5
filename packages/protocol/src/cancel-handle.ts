/**
 * A one-shot cancellation, cheaper than an `AbortController` (on Node its `AbortSignal` is an
 * `EventTarget`: a few microseconds to create and about one per listener, more than the rest of a
 * request's work). One callback can be registered to do the cancelling; an `AbortSignal` is made only for
 * code that asks for one (`signal`, e.g. for `fetch` or `TransportSendOptions.requestSignal`). The engine
 * uses it for the stream of each outgoing request on per-request-stream transports; transports use it
 * for their own exchanges.
 *
 * @example
 * ```ts
 * const handle = new CancelHandle();
 * handle.onAbort((reason) => console.log('cancelling the request:', reason));
 * handle.abort(new Error('the caller gave up')); // runs the callback once
 * ```
 */
export class CancelHandle {
  #aborted = false;
  #reason: unknown;
  #cancel: ((reason: unknown) => void) | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was aborted (an `AbortError` `DOMException` when no reason was given). */
  get reason(): unknown {
    return this.#reason;
  }

  /** An `AbortSignal` that follows this handle, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Registers what does the cancelling (one callback); runs it at once when already aborted. */
  onAbort(cancel: (reason: unknown) => void): void {
    if (this.#aborted) cancel(this.#reason);
    else this.#cancel = cancel;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const cancel = this.#cancel;
    this.#cancel = undefined;
    this.#controller?.abort(this.#reason);
    cancel?.(this.#reason);
  }
}
