import { DEFAULT_MAX_MESSAGE_BYTES } from '../transports/limit-defaults.js';

/**
 * Default cap on one HTTP request body: 4 MiB, the same as the official SDK's servers.
 *
 * @deprecated Use `DEFAULT_MAX_MESSAGE_BYTES` (the same value): the limit is `maxMessageBytes` on every
 * transport now. This alias goes in the next minor version.
 *
 * @example
 * ```ts
 * // Allow uploads of twice the default (4 MiB) on this route.
 * const text = await readBoundedText(request, { maxBytes: 2 * DEFAULT_MAX_MESSAGE_BYTES });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES: number = DEFAULT_MAX_MESSAGE_BYTES;

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
 * const text = await readBoundedText(request, { maxBytes: DEFAULT_MAX_MESSAGE_BYTES });
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

  return decodeChunks(chunks, total);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeChunks(chunks: readonly Uint8Array[], total: number): string {
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(joined);
}

/**
 * A body that arrives as events, the way Node's `IncomingMessage` delivers it (`data`, `end`, `error`,
 * `close`). Typed by shape, so this module stays free of Node imports.
 *
 * @example
 * ```ts
 * const source: ChunkEventSource = incomingMessage; // from node:http
 * ```
 */
export interface ChunkEventSource {
  /** Request headers (`content-length` is checked before reading). */
  readonly headers?: { readonly 'content-length'?: string | undefined } | undefined;
  /** True once the body was read to its end (by someone else): there is nothing left to read. */
  readonly readableEnded?: boolean | undefined;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * `readBoundedText` for a body that arrives as events (a Node `IncomingMessage`): UTF-8 text, failing
 * with `PayloadTooLargeError` at the first chunk past `maxBytes` (the rest still flows and is dropped,
 * so a 413 can reach the client), `TypeError` for bytes that are not UTF-8, and an `Error` when the
 * client goes away before the end. A declared `Content-Length` over the limit fails before reading, as
 * in `readBoundedText`.
 *
 * @example
 * ```ts
 * const text = await readBoundedEvents(req, { maxBytes: DEFAULT_MAX_MESSAGE_BYTES });
 * ```
 */
export function readBoundedEvents(
  source: ChunkEventSource,
  options: ReadBoundedTextOptions,
): Promise<string> {
  const { maxBytes } = options;
  const declared = source.headers?.['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.reject(new PayloadTooLargeError(maxBytes));
  }
  if (source.readableEnded === true) return Promise.resolve('');
  return new Promise<string>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    // The listeners stay until the body is done (it is read once): a flag is cheaper than removing
    // four of them per request.
    let settled = false;
    source.on('data', (chunk) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        settled = true;
        reject(new PayloadTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    source.on('end', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(decodeChunks(chunks, total));
      } catch (error) {
        reject(error);
      }
    });
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    source.on('error', fail);
    // `close` follows every `end`: only build the error when it means something.
    source.on('close', () => {
      if (!settled) fail(new Error('The request body ended early: the client went away'));
    });
  });
}
