import { StreamableHttpClientTransport } from '@x/transport-streamable-http';

/** The 1.x reconnection options of the SSE streams. */
export interface StreamableHTTPReconnectionOptions {
  initialReconnectionDelay: number;
  maxReconnectionDelay: number;
  reconnectionDelayGrowFactor: number;
  maxRetries: number;
}

/**
 * Options of the official 1.x `StreamableHTTPClientTransport`. `authProvider` (the 1.x OAuth flow) is
 * not supported: passing one throws (use `@x/auth` with x-mcp's transport, or headers in `requestInit`).
 *
 * @example
 * ```ts
 * new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), {
 *   requestInit: { headers: { authorization: `Bearer ${token}` } },
 * });
 * ```
 */
export interface StreamableHTTPClientTransportOptions {
  authProvider?: unknown;
  requestInit?: RequestInit | undefined;
  fetch?: ((url: string | URL, init?: RequestInit) => Promise<Response>) | undefined;
  reconnectionOptions?: StreamableHTTPReconnectionOptions | undefined;
  sessionId?: string | undefined;
}

/**
 * An HTTP error of the transport, as 1.x names it (`code` is the HTTP status).
 *
 * @example
 * ```ts
 * if (error instanceof StreamableHTTPError && error.code === 404) reconnect();
 * ```
 */
export class StreamableHTTPError extends Error {
  readonly code: number | undefined;
  constructor(code: number | undefined, message: string | undefined) {
    super(`Streamable HTTP error: ${message ?? ''}`);
    this.code = code;
  }
}

/**
 * The official 1.x `StreamableHTTPClientTransport(url, opts)` on x-mcp's Streamable HTTP client.
 * Differences: `close()` also ends the session (DELETE), and a session the server lost (404) is
 * re-initialized transparently (x-mcp's defaults).
 *
 * @example
 * ```ts
 * const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'));
 * await client.connect(transport);
 * ```
 */
export class StreamableHTTPClientTransport extends StreamableHttpClientTransport {
  constructor(url: URL, opts: StreamableHTTPClientTransportOptions = {}) {
    if (opts.authProvider !== undefined) {
      throw new TypeError(
        '@x/compat: StreamableHTTPClientTransport does not support authProvider; see the @x/compat README (use @x/auth)',
      );
    }
    const reconnect = opts.reconnectionOptions;
    const fetchImpl = opts.fetch;
    super(url, {
      headers: headersOf(opts.requestInit?.headers),
      ...(fetchImpl === undefined
        ? {}
        : {
            fetch: (target: string | URL, init: RequestInit) =>
              fetchImpl(target, { ...opts.requestInit, ...init }),
          }),
      ...(opts.sessionId === undefined ? {} : { sessionId: opts.sessionId }),
      ...(reconnect === undefined
        ? {}
        : {
            reconnect: {
              initialDelayMs: reconnect.initialReconnectionDelay,
              maxDelayMs: reconnect.maxReconnectionDelay,
              factor: reconnect.reconnectionDelayGrowFactor,
              maxAttempts: reconnect.maxRetries,
            },
          }),
    });
  }
}

/** `requestInit.headers` in any of its forms, as a plain record. */
function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  for (const [key, value] of new Headers(init)) out[key] = value;
  return out;
}
