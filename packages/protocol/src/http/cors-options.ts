/**
 * Cross-origin access for browser clients (Fetch standard, "CORS protocol"): the `cors` option of the
 * Streamable HTTP and legacy SSE handlers.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: (transport) => mcpServer.connect(transport),
 *   cors: { origin: ['https://app.example.com'], credentials: true, maxAge: 3600 },
 * });
 * ```
 */
export interface CorsOptions {
  /** Origins allowed to read responses: `'*'`, one origin, or a list. Default `'*'`. */
  origin?: '*' | string | readonly string[] | undefined;
  /** Send `Access-Control-Allow-Credentials: true` (not allowed together with `origin: '*'`). */
  credentials?: boolean | undefined;
  /** Preflight cache lifetime in seconds. Default `DEFAULT_CORS_MAX_AGE_SECONDS` (600). */
  maxAge?: number | undefined;
}
