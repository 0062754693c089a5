import type { AuthInfo } from '../transport.js';

/**
 * The vocabulary HTTP transports and an authorization package (`@x/auth`) share (DESIGN §10): the
 * transports know these shapes, never the package that fills them.
 */

/**
 * Server side: authenticates one HTTP request before its body is read. Returns the caller's
 * `AuthInfo`, `undefined` for an anonymous caller, or a `Response` (401/403 with `WWW-Authenticate`)
 * that the handler sends as-is. The same shape as the Streamable HTTP and SSE handlers'
 * `authenticate` option.
 *
 * @example
 * ```ts
 * const authenticate: HttpAuthenticate = (request) =>
 *   request.headers.get('authorization') === `Bearer ${secret}`
 *     ? { token: secret, clientId: 'ops', scopes: [] }
 *     : new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
 * ```
 */
export type HttpAuthenticate = (
  request: Request,
) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;

/**
 * The request a client transport is about to send, as `getHeaders` sees it: its method and URL (the
 * POST endpoint, the SSE GET, a DELETE, a reconnect, a WebSocket upgrade), e.g. for a DPoP proof
 * (RFC 9449 §4.2: `htm`, `htu`) or per-path credentials.
 *
 * @example
 * ```ts
 * const getHeaders = async ({ method, url }: HttpRequestInfo) => ({ dpop: await proof(method, url) });
 * ```
 */
export interface HttpRequestInfo {
  method: string;
  url: URL;
}

/**
 * How many times one request is sent again because an auth hook returned true: 2, since one request may
 * need two rounds — the 401 that starts authorization, then the DPoP `use_dpop_nonce` 401 the token's
 * first use draws (RFC 9449 §9) — and a server that never accepts must not loop.
 *
 * @example
 * ```ts
 * for (let retries = 0; response.status === 401 && retries < MAX_AUTH_RETRIES; retries++) { ... }
 * ```
 */
export const MAX_AUTH_RETRIES = 2;

/**
 * Client side: the credential options of every HTTP-based client transport (Streamable HTTP, legacy
 * SSE, the Node WebSocket client's upgrade request), and what `@x/auth`'s `httpAuthOptions(provider)`
 * fills in. For each request the transport sends `headers`, then `getHeaders(request)` merged over them.
 * A 401 goes to `onUnauthorized`, a 403 (`insufficient_scope`, step-up) to `onForbidden`: when the hook
 * returns true (new credentials are ready) the request is sent again, with fresh headers, at most
 * {@link MAX_AUTH_RETRIES} times; false, or a 401/403 past that, surfaces the error. `onResponse` sees
 * every response (e.g. to keep a `DPoP-Nonce`);
 * its body is never shown (it is `null`), so the hook cannot consume a reply meant for the transport.
 *
 * @example
 * ```ts
 * const auth: HttpClientAuthOptions = {
 *   headers: { 'x-client': 'my-app' },
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: async () => {
 *     await tokens.refresh();
 *     return true;
 *   },
 * };
 * new StreamableHttpClientTransport(url, auth);
 * ```
 */
export interface HttpClientAuthOptions {
  /** Headers sent with every request (e.g. a static API key). */
  headers?: Record<string, string> | undefined;
  /** Headers computed per request (e.g. a fresh bearer token), merged over `headers`. */
  getHeaders?:
    | ((request: HttpRequestInfo) => Record<string, string> | Promise<Record<string, string>>)
    | undefined;
  /** A 401: return true to send the request once more (credentials were refreshed or obtained). */
  onUnauthorized?: ((response: Response) => boolean | Promise<boolean>) | undefined;
  /** A 403 (e.g. `insufficient_scope`): return true to send the request once more (after a step-up). */
  onForbidden?: ((response: Response) => boolean | Promise<boolean>) | undefined;
  /** Every response's status and headers (body `null`), before the transport acts on it. */
  onResponse?: ((response: Response) => void) | undefined;
}
