/**
 * The `fetch` every HTTP client transport (and `@x/auth`) accepts: the runtime's own, undici's, or a
 * wrapper that adds a proxy, retries, tracing or an in-process server. Transports always pass `init`.
 *
 * @example
 * ```ts
 * const tracedFetch: FetchLike = async (url, init) => {
 *   const response = await fetch(url, init);
 *   console.log(init.method ?? 'GET', String(url), response.status);
 *   return response;
 * };
 * new StreamableHttpClientTransport('https://mcp.example.com/mcp', { fetch: tracedFetch });
 * new SseClientTransport('https://legacy.example.com/sse', { fetch: tracedFetch });
 * ```
 */
export type FetchLike = (url: string | URL, init: RequestInit) => Promise<Response>;
