import { MODERN_ERROR_CODES } from './http-status-error.js';

/** The statuses of a first POST that mean "no Streamable HTTP endpoint here" (2025-11-25 transports). */
const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);
// Deep enough for any wrapping a client does; bounded so a cyclic `cause` cannot loop.
const MAX_CAUSE_DEPTH = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The one rule for "fall back to the deprecated HTTP+SSE transport", used by `connectWithSseFallback`
 * and by the client's `connect(transport, { fallback })`: the first exchange failed with HTTP 400, 404
 * or 405 (2025-11-25 "Backwards Compatibility": POST fails → GET the URL for an `endpoint` event), and
 * its body is no error only a modern server sends (2026-07-28 "Backward Compatibility": the server is
 * there and answered). Any other status (401/403 must surface, 406, 413, 415, 429, 5xx) is no reason to
 * try another transport. Duck-typed (`status` and `rpcError` on the error or its `cause` chain), so a
 * client that imports no transport applies it to any transport's error.
 *
 * @example
 * ```ts
 * try { await client.connect(new StreamableHttpClientTransport(url)); }
 * catch (error) { if (shouldFallBackToSse(error)) await client.connect(new SseClientTransport(url)); else throw error; }
 * ```
 */
export function shouldFallBackToSse(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && isRecord(current); depth++) {
    const status = current['status'];
    if (typeof status === 'number' && status > 0) {
      const rpc = current['rpcError'];
      const code = isRecord(rpc) ? rpc['code'] : undefined;
      return FALLBACK_STATUSES.has(status) && !(typeof code === 'number' && MODERN_ERROR_CODES.has(code));
    }
    current = current['cause'];
  }
  return false;
}
