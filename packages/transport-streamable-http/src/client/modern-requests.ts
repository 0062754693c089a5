import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '@x/protocol/core';
import { type CancelHandle as Exchange, InFlightMap } from '@x/protocol/transport';
import { addModernHeaders, ToolParamHeaders } from './request-headers.js';

/**
 * Client-side bookkeeping of the modern era (2026-07-28 streamable-http): which requests are in flight
 * (so a cancellation can close their stream), and which tools mirror arguments into `Mcp-Param-*`
 * headers, learned from the `tools/list` results that pass through.
 */
export class ModernRequests {
  #inflight = new InFlightMap<RequestId, Exchange>();
  #toolsLists = new Set<RequestId>();
  #tools = new ToolParamHeaders();

  /** Notes an outgoing request before it is sent. */
  sending(message: JSONRPCRequest): void {
    if (message.method === 'tools/list') this.#toolsLists.add(message.id);
  }

  /** The request could not be sent. */
  failed(id: RequestId): void {
    this.#toolsLists.delete(id);
    this.#inflight.delete(id);
  }

  /** A modern request is on the wire; aborting `exchange` closes its stream. */
  track(id: RequestId, exchange: Exchange): void {
    this.#inflight.set(id, exchange);
  }

  /** The request's response arrived (or never will). */
  settle(id: RequestId): void {
    this.#inflight.delete(id);
  }

  /** True (and forgotten) when the caller cancelled the request, so its stream ended on purpose. */
  cancelled(id: RequestId): boolean {
    if (this.#inflight.get(id)?.aborted !== true) return false;
    this.#inflight.delete(id);
    return true;
  }

  /**
   * On Streamable HTTP a modern request is cancelled by closing its response stream, and "no
   * notifications/cancelled message is expected" (2026-07-28 "Cancellation"): returns true when the
   * notification was handled that way and must not be sent.
   */
  cancel(message: JSONRPCNotification): boolean {
    const requestId = message.params?.['requestId'];
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    const inflight = this.#inflight.get(requestId);
    if (inflight === undefined) return false;
    // Kept in the map (aborted) until its stream ends, so that end is not mistaken for a failure.
    inflight.abort();
    return true;
  }

  /** Adds the mirrored headers of a modern message. */
  addHeaders(
    headers: Record<string, string>,
    message: JSONRPCMessage & { method: string },
    version: string,
  ): void {
    addModernHeaders(headers, message, version, this.#tools);
  }

  /**
   * Reads a `tools/list` result this transport asked for; returns the names of tools dropped for
   * invalid `x-mcp-header` annotations ("the client MUST exclude the invalid tool from the result of
   * tools/list").
   */
  received(id: RequestId, message: JSONRPCMessage): string[] {
    this.#inflight.delete(id);
    if (!this.#toolsLists.delete(id) || !('result' in message)) return [];
    const rejected = this.#tools.learn(message.result);
    if (rejected.length > 0) {
      const tools = message.result['tools'] as Array<Record<string, unknown>>;
      message.result['tools'] = tools.filter((tool) => !rejected.includes(tool['name'] as string));
    }
    return rejected;
  }
}
