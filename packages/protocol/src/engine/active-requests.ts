import type { RequestId } from '../jsonrpc.js';
import { InFlightMap } from '../in-flight-map.js';
import type { HandlerContext } from './request-context.js';

/**
 * The incoming half of the engine: the requests whose handlers are running or queued, by id, so a
 * `notifications/cancelled` or the connection's end can abort them (spec: basic/utilities/cancellation).
 */
export class ActiveRequests {
  readonly #map = new InFlightMap<RequestId, HandlerContext>();

  get size(): number {
    return this.#map.size;
  }

  /** Whether a running request uses `requestId`. */
  has(requestId: RequestId): boolean {
    return this.#map.has(requestId);
  }

  /** Registers a starting handler; the caller has checked with {@link has} that its id is free. */
  begin(ctx: HandlerContext): void {
    this.#map.set(ctx.requestId, ctx);
  }

  /**
   * Forgets a finished handler (unless a cancellation already did). Returns whether its request is still
   * live, i.e. not aborted: a cancelled or closed request gets no response.
   */
  end(ctx: HandlerContext): boolean {
    if (this.#map.get(ctx.requestId) === ctx) this.#map.delete(ctx.requestId);
    return ctx.unlink();
  }

  /**
   * Aborts the handler of `requestId` when `isCancellable(method)` agrees, and returns its context.
   * Unknown or finished ids are ignored: the cancellation raced the response, which the spec allows.
   */
  cancel(
    requestId: RequestId,
    reason: string | undefined,
    isCancellable: (method: string) => boolean,
  ): HandlerContext | undefined {
    const ctx = this.#map.get(requestId);
    if (ctx === undefined || !isCancellable(ctx.method)) return undefined;
    this.#map.delete(requestId);
    // An AbortError like fetch's, so handlers can pass ctx.signal straight to web APIs.
    ctx.abort(new DOMException(reason ?? 'Request cancelled by the peer', 'AbortError'));
    return ctx;
  }

  /** Aborts every running handler (the connection closed). */
  abortAll(reason: unknown): void {
    const running = [...this.#map.values()];
    this.#map.clear();
    for (const ctx of running) ctx.abort(reason);
  }
}
