import type { CancelHandle as Exchange } from '@x/protocol/transport';
import { type FetchLike, PayloadTooLargeError } from '@x/protocol/http';

/**
 * The HTTP layer under the client transport, small enough to implement over `fetch` (browsers, Workers,
 * Deno, Bun) and over undici's dispatcher (Node default: no WHATWG or Node stream per reply).
 */

/** One HTTP request the transport makes. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Aborting it cancels the request, or the reading of its body. */
  exchange: Exchange;
}

/** The parts of a response the transport reads. */
export interface HttpReply {
  status: number;
  /** A header value (case-insensitive name), or null. */
  header(name: string): string | null;
  /** Every header (for `onResponse`). */
  headers(): Headers;
  /**
   * The body as UTF-8 text. With `maxBytes`, a body larger than that is not read further: the exchange
   * is cancelled and the promise rejects with `PayloadTooLargeError`.
   */
  text(maxBytes?: number): Promise<string>;
  /**
   * Hands the body's chunks to `onChunk` as they arrive (those that came before first); resolves when
   * the body ends, rejects when it breaks or `onChunk` throws (which cancels the request). Call once.
   */
  stream(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /** Discards the body and frees the connection. */
  discard(): Promise<void>;
  /** The reply as a WHATWG `Response` (for hooks such as `onUnauthorized`). */
  toResponse(): Response;
}

export type HttpRequester = (request: HttpRequest) => Promise<HttpReply>;

async function streamBody(
  body: ReadableStream<Uint8Array> | null,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onChunk(value);
    }
  } catch (error) {
    // Stopping early (`onChunk` threw, or the body broke) must release the connection.
    await reader.cancel().catch(() => {});
    throw error;
  }
}

/** A body of at most `maxBytes`, read chunk by chunk (the rest is cancelled once it is over). */
async function boundedText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  await streamBody(body, (chunk) => {
    size += chunk.byteLength;
    if (size > maxBytes) throw new PayloadTooLargeError(maxBytes);
    chunks.push(chunk);
  });
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * The first `maxBytes` of a reply's body as text (a diagnostic excerpt, e.g. of an error page); the
 * rest is not read: the exchange is cancelled, so a huge error body costs no more than the excerpt.
 *
 * @example
 * ```ts
 * const excerpt = await readPrefix(reply, 4_096);
 * ```
 */
export async function readPrefix(reply: Pick<HttpReply, 'stream'>, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const enough = new Error('enough');
  try {
    await reply.stream((chunk) => {
      const room = maxBytes - size;
      chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(room, chunk.byteLength);
      if (size >= maxBytes) throw enough;
    });
  } catch (error) {
    if (error !== enough && chunks.length === 0) return '';
  }
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  // A character cut at the limit is dropped rather than shown as U+FFFD.
  return text + decoder.decode().replace(/\uFFFD$/, '');
}

/**
 * An {@link HttpRequester} over any `fetch`.
 *
 * @example
 * ```ts
 * const requester = fetchRequester(globalThis.fetch.bind(globalThis));
 * ```
 */
export function fetchRequester(fetchFn: FetchLike): HttpRequester {
  return async (request) => {
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.body !== undefined) init.body = request.body;
    init.signal = request.exchange.signal;
    const response = await fetchFn(request.url, init);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      headers: () => response.headers,
      text: (maxBytes) => {
        if (maxBytes === undefined) return response.text();
        const length = Number(response.headers.get('content-length') ?? Number.NaN);
        if (length > maxBytes) {
          void response.body?.cancel().catch(() => {});
          return Promise.reject(new PayloadTooLargeError(maxBytes));
        }
        return boundedText(response.body, maxBytes);
      },
      stream: (onChunk) => streamBody(response.body, onChunk),
      discard: async () => {
        await response.body?.cancel().catch(() => {});
      },
      toResponse: () => response,
    };
  };
}
