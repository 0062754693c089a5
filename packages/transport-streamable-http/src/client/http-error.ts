import { ErrorCode } from '@x/protocol';

/** Codes by which a modern server identifies itself in a 4xx body (2026-07-28 "Backward Compatibility"). */
const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MethodNotFound,
]);

/**
 * An HTTP exchange with the MCP endpoint failed with a non-2xx status (or an unusable reply). Carries
 * what a caller needs to decide what to do next: re-authenticate on 401, fall back to the legacy
 * HTTP+SSE transport on 400/404/405 (see `shouldFallBackToSse`), back off on 429/503.
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (error) { if (error instanceof StreamableHttpError && error.status === 405) useLegacySse(); }
 * ```
 */
export class StreamableHttpError extends Error {
  override readonly name = 'StreamableHttpError';
  /** HTTP status; -1 when the reply had an unexpected content type. */
  readonly status: number;
  /** The start of the response body, for diagnostics. */
  readonly body: string;
  /** The JSON-RPC error in the body, when there was one. */
  readonly rpcError: { code: number; message: string; data?: unknown } | undefined;

  constructor(options: { status: number; body?: string; message: string }) {
    super(options.message);
    this.status = options.status;
    this.body = options.body ?? '';
    this.rpcError = parseRpcError(this.body);
  }

  /** True when the body is an error only a modern (2026-07-28+) server sends. */
  get isModernServerError(): boolean {
    return this.rpcError !== undefined && MODERN_ERROR_CODES.has(this.rpcError.code);
  }
}

function parseRpcError(body: string): StreamableHttpError['rpcError'] {
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
