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
 * Client side: what an HTTP client transport asks of a credential provider. `getHeaders` is merged into
 * every request; `onUnauthorized` gets a 401 and returns true when the request should be sent again
 * (new credentials are ready); `onForbidden` does the same for a 403 (`insufficient_scope` step-up).
 * A transport that has no `onForbidden` hook yet surfaces the 403 as an error.
 *
 * @example
 * ```ts
 * const auth: HttpClientAuthOptions = {
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 *   onUnauthorized: async () => (await tokens.refresh(), true),
 * };
 * new StreamableHttpClientTransport(url, { ...auth });
 * ```
 */
export interface HttpClientAuthOptions {
  getHeaders: () => Record<string, string> | Promise<Record<string, string>>;
  onUnauthorized: (response: Response) => boolean | Promise<boolean>;
  onForbidden?: ((response: Response) => boolean | Promise<boolean>) | undefined;
}
