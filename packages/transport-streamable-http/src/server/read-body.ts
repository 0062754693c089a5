/** Default cap on one request body: 4 MiB, the same as the official SDK's servers. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body exceeded its byte limit; the handler answers 413 Content Too Large. */
export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`Request body exceeds the limit of ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * Reads a body as UTF-8 without ever holding more than `maxBytes`: a declared `Content-Length` over the
 * limit fails before reading, and a body that grows past it (chunked, or lying about its length) is
 * cancelled at the first chunk over the line. Throws `PayloadTooLargeError`, or `TypeError` for bytes
 * that are not UTF-8.
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
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
