import type { ReconnectOptions, ResolvedReconnectOptions } from '@x/protocol/core';
import type { FetchLike, HttpClientAuthOptions } from '@x/protocol/http';

/**
 * How SSE streams are re-opened unless `reconnect` says otherwise: 1 s (or the server's `retry`), × 1.5
 * per failure, at most 30 s, 5 failures in a row, no jitter.
 *
 * @example
 * ```ts
 * new StreamableHttpClientTransport(url, { reconnect: { ...STREAMABLE_HTTP_RECONNECT_DEFAULTS, maxAttempts: 10 } });
 * ```
 */
export const STREAMABLE_HTTP_RECONNECT_DEFAULTS: ResolvedReconnectOptions = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 1.5,
  maxAttempts: 5,
  jitter: 0,
};

/**
 * Options of `StreamableHttpClientTransport`: the HTTP auth options every HTTP client transport shares
 * (`headers`, `getHeaders`, `onUnauthorized`, `onForbidden`, `onResponse`) plus its own.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', {
 *   headers: { 'x-client': 'my-app' },
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: () => tokens.refresh(), // true → retry once
 *   reconnect: { maxAttempts: 10 },
 * });
 * ```
 */
export interface StreamableHttpClientTransportOptions extends HttpClientAuthOptions {
  /**
   * The `fetch` to use (browsers, Workers, Deno, Bun, tests). Default on Node: undici's dispatcher read
   * directly (no WHATWG or Node stream per reply: several times faster than `fetch` on loopback), on a
   * keep-alive pool per origin shared by the open transports, closed when the last of them closes;
   * elsewhere the global `fetch`.
   */
  fetch?: FetchLike | undefined;
  /** Resume an existing legacy session. */
  sessionId?: string | undefined;
  /** Initial `MCP-Protocol-Version` for legacy requests (normally set by the client after initialize). */
  protocolVersion?: string | undefined;
  /**
   * Backoff for re-opening dropped SSE streams (resuming with `Last-Event-ID`); the server's `retry`
   * replaces `initialDelayMs` and is never undercut. Default `STREAMABLE_HTTP_RECONNECT_DEFAULTS`;
   * `false` never re-opens (a broken response stream then fails its request at once).
   *
   * @default {@link STREAMABLE_HTTP_RECONNECT_DEFAULTS}
   */
  reconnect?: boolean | ReconnectOptions | undefined;
  /**
   * On 404 for its session, start a new one by re-sending the remembered `initialize` and
   * `notifications/initialized`, then retry the request; the client layer never notices. Default true.
   *
   * @default true
   */
  reinitializeOnSessionLoss?: boolean | undefined;
  /**
   * The silence detector of the long-lived SSE streams: the legacy GET stream and 2026-07-28
   * `subscriptions/listen` streams. No byte for this long (the server's keep-alive comments count:
   * x-mcp servers send one every `keepAliveMs`, 15 s) and the stream is taken for dead (a proxy that
   * dropped it, a sleeping laptop's stale socket): it is aborted and reported to `onerror` with an
   * error naming this option; the GET stream is then re-opened under `reconnect`, while a listen
   * stream, which 2026-07-28 cannot resume, fails its subscription (re-open it, or let a retry policy).
   * Default 45 000 (`DEFAULT_IDLE_TIMEOUT_MS`), armed at a stream's first keep-alive comment (a server
   * that sends none is never cut); set explicitly, armed as each stream opens. 0 turns it off.
   *
   * @default {@link DEFAULT_IDLE_TIMEOUT_MS}
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Open the GET stream after `notifications/initialized` (405 is tolerated). Default true.
   *
   * @default true
   */
  standaloneStream?: boolean | undefined;
  /**
   * Send DELETE for the session on `close()` (2025-11-25 "Session Management" 5). Default true.
   *
   * @default true
   */
  terminateSessionOnClose?: boolean | undefined;
  /**
   * Most messages one JSON-RPC batch from the server may hold (2025-03-26 sessions only; a larger one
   * is reported to `onerror` and dropped). Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * Largest reply the transport reads: a JSON body of more bytes, or an SSE event of more characters, is
   * dropped (the connection is cancelled) and its request fails with an error naming this option.
   * Default 4 MiB, like the server's `maxBodyBytes`.
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * How deeply a reply's arrays and objects may nest; deeper JSON is refused with -32700 before it is
   * parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
}
