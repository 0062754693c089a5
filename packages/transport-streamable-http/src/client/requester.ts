import type { CancelHandle as Exchange } from '@x/protocol';

/**
 * The HTTP layer under the client transport, small enough to implement over `fetch` (browsers, Workers,
 * Deno, Bun) and over undici's dispatcher (Node default: no WHATWG or Node stream per reply).
 */

/** One HTTP request the transport makes. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Aborting it cancels the request, or the reading of its body. */
  exchange: Exchange;
}

/** The parts of a response the transport reads. */
export interface HttpReply {
  status: number;
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null;
  text(): Promise<string>;
  /**
   * Hands the body's chunks to `onChunk` as they arrive (those that came before first); resolves when
   * the body ends, rejects when it breaks or `onChunk` throws (which cancels the request). Call once.
   */
  stream(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /** Discards the body and frees the connection. */
  discard(): Promise<void>;
  /** The reply as a WHATWG `Response` (for hooks such as `onUnauthorized`). */
  toResponse(): Response;
}

export type HttpRequester = (request: HttpRequest) => Promise<HttpReply>;

/**
 * The `fetch` signature the transport accepts (the global one, undici's, or a test double).
 *
 * @example
 * ```ts
 * // Trace every request the transport makes.
 * const tracedFetch: FetchLike = async (url, init) => {
 *   const started = performance.now();
 *   const response = await fetch(url, init);
 *   console.log(init.method, String(url), response.status, `${Math.round(performance.now() - started)} ms`);
 *   return response;
 * };
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', { fetch: tracedFetch });
 * ```
 */
export type FetchLike = (url: string | URL, init: RequestInit) => Promise<Response>;

async function streamBody(
  body: ReadableStream<Uint8Array> | null,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onChunk(value);
    }
  } catch (error) {
    // Stopping early (`onChunk` threw, or the body broke) must release the connection.
    await reader.cancel().catch(() => {});
    throw error;
  }
}

/**
 * An {@link HttpRequester} over any `fetch`.
 *
 * @example
 * ```ts
 * const requester = fetchRequester(globalThis.fetch.bind(globalThis));
 * ```
 */
export function fetchRequester(fetchFn: FetchLike): HttpRequester {
  return async (request) => {
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.body !== undefined) init.body = request.body;
    init.signal = request.exchange.signal;
    const response = await fetchFn(request.url, init);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      text: () => response.text(),
      stream: (onChunk) => streamBody(response.body, onChunk),
      discard: async () => {
        await response.body?.cancel().catch(() => {});
      },
      toResponse: () => response,
    };
  };
}
