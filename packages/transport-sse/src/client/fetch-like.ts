/**
 * The subset of `fetch` the client uses. Pass the runtime's own (`globalThis.fetch`) outside Node, or a
 * wrapper that adds a proxy, retries or tracing.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
