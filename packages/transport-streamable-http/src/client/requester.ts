/**
 * The HTTP layer under the client transport, small enough to implement over `fetch` (browsers, Workers,
 * Deno, Bun) and over undici's `request` (Node default: no WHATWG stream overhead per chunk).
 */

/** One HTTP request the transport makes. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The parts of a response the transport reads. */
export interface HttpReply {
  status: number;
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null;
  text(): Promise<string>;
  /** The body as raw chunks; iterate once. */
  chunks(): AsyncIterable<Uint8Array>;
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

async function* readerChunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopping early (the consumer broke out, or an error) must release the connection.
    await reader.cancel().catch(() => {});
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
    if (request.signal !== undefined) init.signal = request.signal;
    const response = await fetchFn(request.url, init);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      text: () => response.text(),
      chunks: () => readerChunks(response.body),
      discard: async () => {
        await response.body?.cancel().catch(() => {});
      },
      toResponse: () => response,
    };
  };
}
