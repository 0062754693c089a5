import type { Transport } from '@x/protocol/core';
import { HttpStatusError } from '@x/protocol/http';

/**
 * True when a failed first exchange means "this URL is not a Streamable HTTP endpoint" and the client
 * should try the deprecated HTTP+SSE transport (2025-11-25 "Backwards Compatibility": POST fails with
 * 400, 404 or 405 → GET the URL for an `endpoint` event), unless the body is an error only a modern
 * server sends (2026-07-28 "Backward Compatibility"), which means the server is there and answered.
 * Looks through `cause` chains, since a client may wrap transport errors.
 *
 * @example
 * ```ts
 * try { await client.connect(new StreamableHttpClientTransport(url)); }
 * catch (error) { if (shouldFallBackToSse(error)) await client.connect(new SseClientTransport(url)); else throw error; }
 * ```
 */
export function shouldFallBackToSse(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 8; depth++) {
    if (current instanceof HttpStatusError) {
      return [400, 404, 405].includes(current.status) && !current.isModernServerError;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

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
