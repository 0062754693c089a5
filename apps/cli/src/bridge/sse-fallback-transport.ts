import type { JSONRPCMessage, Transport, TransportSendOptions } from '@x/protocol/core';
import { shouldFallBackToSse } from '@x/protocol/http';

/** Options of `SseFallbackTransport`. */
export interface SseFallbackTransportOptions {
  /** The Streamable HTTP transport, tried first. */
  readonly primary: Transport;
  /** Opens the legacy HTTP+SSE transport at the same URL (not started). */
  readonly fallback: () => Transport | Promise<Transport>;
  /** Told once the fallback is taken, with the refusal that caused it. */
  readonly onfallback?: ((reason: Error) => void) | undefined;
}

/**
 * Streamable HTTP, else legacy HTTP+SSE at the same URL (2025-11-25 transports, "Backwards
 * Compatibility"): until a request has gone through, a send the server refuses with 400, 404 or 405
 * (`shouldFallBackToSse`, the client's own rule) moves to the SSE transport and is sent again there.
 * The bridge's upstream `Client` sees one transport, so its era negotiation simply carries on (a
 * legacy SSE server answers `server/discover` with -32601 and gets `initialize`).
 *
 * @example
 * ```ts
 * new SseFallbackTransport({
 *   primary: new StreamableHttpClientTransport(url),
 *   fallback: () => new SseClientTransport(url),
 * });
 * ```
 */
export class SseFallbackTransport implements Transport {
  readonly #fallback: SseFallbackTransportOptions['fallback'];
  readonly #onfallback: SseFallbackTransportOptions['onfallback'];
  #active: Transport;
  /** A request went through: the transport is settled, refusals are the caller's. */
  #settled = false;
  #switching: Promise<Transport> | undefined;
  #protocolVersion: string | undefined;
  #closed = false;

  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  constructor(options: SseFallbackTransportOptions) {
    this.#active = options.primary;
    this.#fallback = options.fallback;
    this.#onfallback = options.onfallback;
    this.#adopt(options.primary);
  }

  get sessionId(): string | undefined {
    return this.#active.sessionId;
  }

  /** Which transport carries the session now. */
  get activeName(): 'streamable-http' | 'sse' {
    return this.#switching === undefined ? 'streamable-http' : 'sse';
  }

  start(): Promise<void> {
    return this.#active.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#settled || !('method' in message && 'id' in message)) {
      return (await (this.#switching ?? this.#active)).send(message, options);
    }
    const transport = await (this.#switching ?? this.#active);
    try {
      await transport.send(message, options);
      this.#settled = true;
    } catch (error) {
      if (this.#switching !== undefined || this.#closed || !shouldFallBackToSse(error)) throw error;
      await (await this.#switchToSse(error as Error)).send(message, options);
      this.#settled = true;
    }
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#active.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#active.close();
  }

  #switchToSse(reason: Error): Promise<Transport> {
    this.#switching ??= (async () => {
      const primary = this.#active;
      primary.onmessage = undefined;
      primary.onclose = undefined;
      primary.onerror = undefined;
      await primary.close().catch(() => undefined);
      const sse = await this.#fallback();
      this.#active = sse;
      this.#adopt(sse);
      if (this.#protocolVersion !== undefined) sse.setProtocolVersion?.(this.#protocolVersion);
      await sse.start();
      this.#onfallback?.(reason);
      return sse;
    })();
    return this.#switching;
  }

  #adopt(transport: Transport): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra);
    transport.onerror = (error) => this.onerror?.(error);
    transport.onclose = () => this.onclose?.();
  }
}
