/**
 * Default cap on one HTTP request body: 4 MiB, the same as the official SDK's servers.
 *
 * @example
 * ```ts
 * // Allow uploads of twice the default (4 MiB) on this route.
 * const text = await readBoundedText(request, { maxBytes: 2 * DEFAULT_MAX_BODY_BYTES });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A request body exceeded its byte limit; servers answer it with 413 Content Too Large.
 *
 * @example
 * ```ts
 * try { await readBoundedText(request, { maxBytes: 1024 }); }
 * catch (error) { if (error instanceof PayloadTooLargeError) return new Response(null, { status: 413 }); }
 * ```
 */
export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`Request body exceeds the limit of ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * Options of `readBoundedText(request, options)`.
 *
 * @example
 * ```ts
 * const body = JSON.parse(await readBoundedText(request, { maxBytes: 64 * 1024 }));
 * ```
 */
export interface ReadBoundedTextOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
}

/**
 * Reads a request body as UTF-8 text without ever holding more than `maxBytes` of it: a declared
 * `Content-Length` over the limit fails before reading, and a body that grows past it while streaming
 * (chunked, or lying about its length) is cancelled at the first chunk that crosses the line.
 * Throws `PayloadTooLargeError`, or `TypeError` for bytes that are not UTF-8.
 *
 * @example
 * ```ts
 * const text = await readBoundedText(request, { maxBytes: DEFAULT_MAX_BODY_BYTES });
 * ```
 */
export async function readBoundedText(request: Request, options: ReadBoundedTextOptions): Promise<string> {
  const { maxBytes } = options;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const body = request.body;
  if (body === null) return '';

  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }

  const decoder = new TextDecoder('utf-8', { fatal: true });
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(joined);
}
