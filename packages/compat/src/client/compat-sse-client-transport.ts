import { SseClientTransport } from '@x/transport-sse';

/**
 * Options of the official 1.x `SSEClientTransport`. `authProvider` and `eventSourceInit` are not
 * supported (passing `authProvider` throws; headers go in `requestInit`).
 *
 * @example
 * ```ts
 * new SSEClientTransport(new URL('http://127.0.0.1:3000/sse'), { requestInit: { headers: { 'x-key': key } } });
 * ```
 */
export interface SSEClientTransportOptions {
  authProvider?: unknown;
  requestInit?: RequestInit | undefined;
  fetch?: ((url: string | URL, init?: RequestInit) => Promise<Response>) | undefined;
}

/**
 * The official 1.x `SSEClientTransport(url, opts)` (the 2024-11-05 HTTP+SSE transport) on x-mcp's.
 *
 * @example
 * ```ts
 * await client.connect(new SSEClientTransport(new URL('http://127.0.0.1:3000/sse')));
 * ```
 */
export class SSEClientTransport extends SseClientTransport {
  constructor(url: URL, opts: SSEClientTransportOptions = {}) {
    if (opts.authProvider !== undefined) {
      throw new TypeError(
        '@x/compat: SSEClientTransport does not support authProvider; see the @x/compat README',
      );
    }
    const fetchImpl = opts.fetch;
    const headers: Record<string, string> = {};
    if (opts.requestInit?.headers !== undefined) {
      for (const [key, value] of new Headers(opts.requestInit.headers)) headers[key] = value;
    }
    super(url, {
      headers,
      ...(fetchImpl === undefined
        ? {}
        : {
            fetch: (target: string | URL, init: RequestInit) =>
              fetchImpl(target, { ...opts.requestInit, ...init }),
          }),
    });
  }
}
