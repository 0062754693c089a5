import { AuthError } from '../auth-error.js';
import { capBody } from '../capped-body.js';

/**
 * The most bytes the OAuth client reads of one response body (metadata, registration, token): real
 * documents are a few KB; past this the read is aborted. Option `maxResponseBytes`.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * Wraps `fetch` so no response body is read past `maxBytes`: a `Content-Length` above it is refused
 * before reading, and a streamed body errors (and its connection is cancelled) at the first chunk
 * that crosses it. Every JSON the client fetches, its own reads and oauth4webapi's, goes through it,
 * so a hostile server cannot make the client buffer a 64 MB document.
 */
export function cappedFetch(base: typeof fetch, maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const where = new URL(response.url || String(input instanceof Request ? input.url : input));
    return capBody(
      response,
      maxBytes,
      () =>
        new AuthError(
          'response_too_large',
          `the response of ${where.origin}${where.pathname} is larger than ${maxBytes} bytes (maxResponseBytes)`,
        ),
    );
  };
}
