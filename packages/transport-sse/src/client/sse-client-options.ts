import type { FetchLike, HttpClientAuthOptions } from '@x/protocol/http';

/**
 * How long `SseClientTransport.start()` waits for the server's `endpoint` event (`endpointTimeoutMs`):
 * 30 s, the WebSocket client's handshake timeout, room for a cold start of a serverless backend.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport(url, { endpointTimeoutMs: DEFAULT_ENDPOINT_TIMEOUT_MS / 3 });
 * ```
 */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

/**
 * Options of `SseClientTransport`: the HTTP auth options every HTTP client transport shares
 * (`headers`, `getHeaders`, `onUnauthorized`, `onForbidden`, `onResponse`: a 401/403 whose hook returns
 * true is sent once more, for the GET as for each POST) plus its own.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport('https://legacy.example.com/sse', {
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: () => tokens.refresh(), // true → retried once
 *   endpointTimeoutMs: 10_000,
 * });
 * ```
 */
export interface SseClientTransportOptions extends HttpClientAuthOptions {
  /**
   * Used for every request. Default: on Node undici (`request` for the stream and the POSTs); in
   * browsers, Workers, Deno and Bun the global `fetch`.
   */
  fetch?: FetchLike | undefined;
  /**
   * How long `start()` waits for the `endpoint` event, in ms: 30 s.
   *
   * @default {@link DEFAULT_ENDPOINT_TIMEOUT_MS}
   */
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
   *
   * @default {@link DEFAULT_IDLE_TIMEOUT_MS}
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Largest single event accepted from the server; a bigger one ends the session (`onerror` and
   * `closeReason`: a `ConnectionClosedError` naming `maxMessageBytes`). Default 4 MiB
   * (`DEFAULT_MAX_MESSAGE_BYTES`).
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * An event whose JSON nests deeper than this is refused (`onerror` gets a -32700 `McpError` naming
   * `maxNestingDepth`) before it is parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
  /**
   * POSTs in flight at once. Default 16. Requests and responses may then reach the server in another
   * order than they were sent (they race over separate connections), but a notification keeps its
   * place: it goes out once every earlier POST was accepted, and nothing later overtakes it (so
   * `notifications/initialized` precedes every later request). 1 keeps every message in order.
   *
   * @default {@link DEFAULT_MAX_CONCURRENT_SENDS}
   */
  maxConcurrentSends?: number | undefined;
  /**
   * Most messages one 2025-03-26 batch from the server may hold; larger ones get -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
}
