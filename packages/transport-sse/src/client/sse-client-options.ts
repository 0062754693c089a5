import type { FetchLike } from './fetch-like.js';

/**
 * Options of `SseClientTransport`; only `url` is required.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport({
 *   url: 'https://legacy.example.com/sse',
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: () => tokens.refresh(), // then retried once
 *   endpointTimeoutMs: 10_000,
 * });
 * ```
 */
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
  /**
   * Liveness check of the stream: when nothing (no event, no keep-alive comment, no byte) arrives for
   * this long, the server is taken for gone (it died, or the network dropped the connection without
   * closing it) and the transport closes: `onerror` with a `ConnectionClosedError`, then `onclose`, so
   * pending requests fail instead of hanging. Keep it above the server's keep-alive interval.
   *
   * Default 45 000 ms (3 × the SSE server's default `keepAliveMs`), armed once the server has sent
   * its first keep-alive comment: servers that send none (the official SDK's v1 `SSEServerTransport`
   * among them) may stay silent between messages for as long as they like. Set a value to arm it from
   * the moment the stream opens; 0 disables it.
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Largest single event accepted from the server; a bigger one ends the session (`onerror` and
   * `closeReason`: a `ConnectionClosedError` naming `maxEventBytes`). Default 4 MiB
   * (`DEFAULT_MAX_EVENT_BYTES`).
   */
  maxEventBytes?: number | undefined;
  /**
   * An event whose JSON nests deeper than this is refused (`onerror` gets a -32700 `McpError` naming
   * `maxNestingDepth`) before it is parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   */
  maxNestingDepth?: number | undefined;
  /**
   * POSTs in flight at once. Default 16. Requests and responses may then reach the server in another
   * order than they were sent (they race over separate connections), but a notification keeps its
   * place: it goes out once every earlier POST was accepted, and nothing later overtakes it (so
   * `notifications/initialized` precedes every later request). 1 keeps every message in order.
   */
  maxConcurrentSends?: number | undefined;
  /** Most messages one 2025-03-26 batch from the server may hold; larger ones get -32600. Default 1000. */
  maxBatchSize?: number | undefined;
}
