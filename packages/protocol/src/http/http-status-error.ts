import { ErrorCode } from '../errors.js';

/** Codes by which a modern server identifies itself in a 4xx body (2026-07-28 "Backward Compatibility"). */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MethodNotFound,
]);

/** What {@link HttpStatusError} is built from. */
export interface HttpStatusErrorInit {
  /** HTTP status; -1 when the reply had an unexpected content type. */
  status: number;
  statusText?: string | undefined;
  /** The start of the response body, for diagnostics. */
  body?: string | undefined;
  /** The reply's `Retry-After`, as milliseconds from now (see {@link parseRetryAfter}). */
  retryAfterMs?: number | undefined;
  message: string;
}

/**
 * A `Retry-After` header value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from
 * `now`; `undefined` when absent or unreadable, 0 for a date in the past.
 *
 * @example
 * ```ts
 * parseRetryAfter('3'); // 3000
 * parseRetryAfter(new Date(Date.now() + 5_000).toUTCString()); // ≈ 5000 (second precision)
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * An HTTP exchange of a client transport was answered with a status outside 2xx (or an unusable reply).
 * The one HTTP error type of every HTTP transport: it carries what a caller needs to decide what to do
 * next (re-authenticate on 401, start over or fall back on 400/404/405, back off on 429/503).
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (error) { if (error instanceof HttpStatusError && error.status === 405) useLegacySse(); }
 * ```
 */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  /** HTTP status; -1 when the reply had an unexpected content type. */
  readonly status: number;
  readonly statusText: string;
  /** The start of the response body, for diagnostics. */
  readonly body: string;
  /** The JSON-RPC error in the body, when there was one. */
  readonly rpcError: { code: number; message: string; data?: unknown } | undefined;
  /**
   * How long the server asked us to wait before trying again (`Retry-After` on a 429 or 503), in ms;
   * `undefined` when it did not say. A client retry policy waits at least this long.
   */
  readonly retryAfterMs: number | undefined;

  constructor(init: HttpStatusErrorInit) {
    super(init.message);
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.statusText = init.statusText ?? '';
    this.body = init.body ?? '';
    this.rpcError = parseRpcError(this.body);
  }

  /** True when the body is an error only a modern (2026-07-28+) server sends. */
  get isModernServerError(): boolean {
    return this.rpcError !== undefined && MODERN_ERROR_CODES.has(this.rpcError.code);
  }

  /**
   * Builds the error from a refused response: at most the first KiB of its body is read (a huge error
   * page costs no more), the rest is cancelled, which releases the connection. `context` says which
   * exchange failed.
   *
   * @example
   * ```ts
   * if (!response.ok) throw await HttpStatusError.from(response, 'POST to the message endpoint');
   * ```
   */
  static async from(response: Response, context: string): Promise<HttpStatusError> {
    const body = await readExcerpt(response, MAX_BODY_IN_ERROR);
    const statusText = response.statusText;
    const suffix = body === '' ? '' : `: ${body}`;
    const message = `${context} failed with HTTP ${response.status}${statusText ? ` ${statusText}` : ''}${suffix}`;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return new HttpStatusError({ status: response.status, statusText, body, message, retryAfterMs });
  }
}

const MAX_BODY_IN_ERROR = 1024;

/** The first `maxBytes` of a body as text; the rest is never read (issue #24: a 300 MB error body). */
async function readExcerpt(response: Response, maxBytes: number): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The body is diagnostic only; a broken one must not hide the status.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.subarray(0, maxBytes));
}

function parseRpcError(body: string): HttpStatusError['rpcError'] {
  if (!body.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = value.error;
    if (error === undefined || typeof error.code !== 'number' || typeof error.message !== 'string')
      return undefined;
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  } catch {
    return undefined;
  }
}
