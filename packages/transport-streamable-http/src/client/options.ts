import type { ReconnectionOptions } from './reconnect.js';
import type { FetchLike } from './requester.js';

/**
 * Options of `StreamableHttpClientTransport`.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', {
 *   headers: { 'x-client': 'my-app' },
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: () => tokens.refresh(), // true → retry once
 *   reconnection: { maxRetries: 10 },
 * });
 * ```
 */
export interface StreamableHttpClientTransportOptions {
  /**
   * The `fetch` to use (browsers, Workers, Deno, Bun, tests). Default on Node: undici's dispatcher read
   * directly (no WHATWG or Node stream per reply: several times faster than `fetch` on loopback), on a
   * keep-alive pool per origin shared by the open transports, closed when the last of them closes;
   * elsewhere the global `fetch`.
   */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request (e.g. a static API key). */
  headers?: Record<string, string> | undefined;
  /** Headers computed per request (e.g. a fresh bearer token); merged over `headers`. */
  getHeaders?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  /**
   * Called on 401 with the response; return true (e.g. after refreshing the token `getHeaders`
   * returns) to retry the request once.
   */
  onUnauthorized?: ((response: Response) => boolean | Promise<boolean>) | undefined;
  /** Resume an existing legacy session. */
  sessionId?: string | undefined;
  /** Initial `MCP-Protocol-Version` for legacy requests (normally set by the client after initialize). */
  protocolVersion?: string | undefined;
  /** Backoff for re-opening dropped SSE streams. */
  reconnection?: ReconnectionOptions | undefined;
  /**
   * On 404 for its session, start a new one by re-sending the remembered `initialize` and
   * `notifications/initialized`, then retry the request; the client layer never notices. Default true.
   */
  reinitializeOnSessionLoss?: boolean | undefined;
  /** Open the GET stream after `notifications/initialized` (405 is tolerated). Default true. */
  standaloneStream?: boolean | undefined;
  /** Send DELETE for the session on `close()` (2025-11-25 "Session Management" 5). Default true. */
  terminateSessionOnClose?: boolean | undefined;
  /**
   * Most messages one JSON-RPC batch from the server may hold (2025-03-26 sessions only; a larger one
   * is reported to `onerror` and dropped). Default 1000.
   */
  maxBatchSize?: number | undefined;
  /**
   * Largest reply the transport reads: a JSON body of more bytes, or an SSE event of more characters, is
   * dropped (the connection is cancelled) and its request fails with an error naming this option.
   * Default 4 MiB, like the server's `maxBodyBytes`.
   */
  maxMessageBytes?: number | undefined;
  /**
   * How deeply a reply's arrays and objects may nest; deeper JSON is refused with -32700 before it is
   * parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   */
  maxNestingDepth?: number | undefined;
}
