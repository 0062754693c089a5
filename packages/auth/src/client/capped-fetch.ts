import { AuthError } from '../auth-error.js';

/**
 * The most bytes the OAuth client reads of one response body (metadata, registration, token): real
 * documents are a few KB; past this the read is aborted. Option `maxResponseBytes`.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;

// Statuses whose Response may not carry a body (Fetch "null body status").
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps `fetch` so no response body is read past `maxBytes`: a `Content-Length` above it is refused
 * before reading, and a streamed body errors (and its connection is cancelled) at the first chunk
 * that crosses it. Every JSON the client fetches, its own reads and oauth4webapi's, goes through it,
 * so a hostile server cannot make the client buffer a 64 MB document.
 */
export function cappedFetch(base: typeof fetch, maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const body = response.body;
    if (body === null || NULL_BODY.has(response.status) || response.type === 'opaqueredirect')
      return response;
    const where = new URL(response.url || String(input instanceof Request ? input.url : input));
    const tooLarge = (): AuthError =>
      new AuthError(
        'response_too_large',
        `the response of ${where.origin}${where.pathname} is larger than ${maxBytes} bytes (maxResponseBytes)`,
      );
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await body.cancel().catch(() => {});
      throw tooLarge();
    }
    const reader = body.getReader();
    let total = 0;
    const capped = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        total += value.byteLength;
        if (total > maxBytes) {
          // Cancelling the source closes the connection: the rest is never downloaded.
          await reader.cancel().catch(() => {});
          controller.error(tooLarge());
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
