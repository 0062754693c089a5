/**
 * The subset of `fetch` the client uses. Pass the runtime's own (`globalThis.fetch`) outside Node, or a
 * wrapper that adds a proxy, retries or tracing.
 *
 * @example
 * ```ts
 * // Outside Node, or to add tracing: pass a fetch of your own.
 * const tracedFetch: FetchLike = (input, init) => {
 *   console.log(init?.method ?? 'GET', String(input));
 *   return fetch(input, init);
 * };
 * const transport = new SseClientTransport({ url: 'https://legacy.example.com/sse', fetch: tracedFetch });
 * ```
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
