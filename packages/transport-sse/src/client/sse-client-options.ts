import type { FetchLike } from './fetch-like.js';

/** Options of `SseClientTransport`; only `url` is required. */
export interface SseClientTransportOptions {
  /** The SSE endpoint (the URL that answers GET with an event stream). */
  url: string | URL;
  /** Used for every request. Default: undici (its `fetch` for the stream, `request` for POSTs). */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Called before every request (the GET and each POST), e.g. to add a fresh `Authorization`. */
  getHeaders?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  /**
   * Called when a request gets 401, with that response (its `WWW-Authenticate` header says how to
   * authenticate). The request is then retried once with headers from `getHeaders`.
   */
  onUnauthorized?: ((response: Response) => void | Promise<void>) | undefined;
  /** How long `start()` waits for the `endpoint` event. Default 30 s. */
  endpointTimeoutMs?: number | undefined;
  /** Largest single event accepted from the server. Default 64 MiB. */
  maxEventBytes?: number | undefined;
  /**
   * POSTs in flight at once. Default 1, which keeps messages in the order they were sent; a higher
   * value trades ordering for throughput.
   */
  maxConcurrentSends?: number | undefined;
}
