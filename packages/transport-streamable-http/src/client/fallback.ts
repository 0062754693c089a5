import type { Transport } from '@x/protocol/core';
import { shouldFallBackToSse } from '@x/protocol/http';

// The one SSE-fallback rule lives in @x/protocol/http, shared with the client's `connect({ fallback })`.
export { shouldFallBackToSse } from '@x/protocol/http';

/**
 * Options of {@link connectWithSseFallback}.
 *
 * @example
 * ```ts
 * const { usedFallback } = await connectWithSseFallback({
 *   streamableHttp: () => new StreamableHttpClientTransport(url),
 *   sse: () => new SseClientTransport(url),
 *   connect: (transport) => client.connect(transport),
 * });
 * ```
 */
export interface SseFallbackOptions<T> {
  /** Builds the Streamable HTTP transport (tried first). */
  streamableHttp: () => Transport;
  /** Builds the legacy HTTP+SSE transport (e.g. from `@x/transport-sse`), tried on a fallback status. */
  sse: () => Transport;
  /** Connects a client over a transport (e.g. `(t) => client.connect(t)`), resolving when initialized. */
  connect: (transport: Transport) => Promise<T>;
}

/**
 * The spec's client fallback flow, composed from factories so this package imports no other transport:
 * connect over Streamable HTTP; if that fails as {@link shouldFallBackToSse} describes, close it and
 * connect over HTTP+SSE instead.
 *
 * @example
 * ```ts
 * const { transport } = await connectWithSseFallback({
 *   streamableHttp: () => new StreamableHttpClientTransport(url),
 *   sse: () => new SseClientTransport(url),
 *   connect: (t) => client.connect(t),
 * });
 * ```
 */
export async function connectWithSseFallback<T>(
  options: SseFallbackOptions<T>,
): Promise<{ transport: Transport; result: T; usedFallback: boolean }> {
  const primary = options.streamableHttp();
  try {
    return { transport: primary, result: await options.connect(primary), usedFallback: false };
  } catch (error) {
    if (!shouldFallBackToSse(error)) throw error;
    await primary.close().catch(() => {});
  }
  const fallback = options.sse();
  return { transport: fallback, result: await options.connect(fallback), usedFallback: true };
}
