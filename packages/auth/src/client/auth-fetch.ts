import type { FetchLike } from '@x/protocol/http';
import type { OAuthClientProvider } from './oauth-client-provider.js';

/**
 * Wraps `fetch` so every request to the provider's MCP server origin carries its token, a 401 runs
 * refresh or authorization and a 403 `insufficient_scope` a bounded step-up, each followed by one
 * resend. Requests to any other origin go out untouched: no token leaves for the wrong origin. Use
 * it as a transport's `fetch` option, or anywhere a `fetch` is wanted (your own HTTP calls to the
 * server); for the transports `httpAuthOptions(provider)` does the same through their auth options.
 *
 * @example
 * ```ts
 * new StreamableHttpClientTransport(url, { fetch: authFetch(provider) });
 * ```
 */
export function authFetch(provider: OAuthClientProvider, base: FetchLike = (u, i) => fetch(u, i)): FetchLike {
  const origin = provider.serverUrl.origin;
  return async (url, init) => {
    const target = new URL(url);
    if (target.origin !== origin) return base(url, init);
    const method = init.method ?? 'GET';
    let unauthorizedRetries = 0;
    let nonceRetries = 0;
    for (;;) {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(await provider.headersFor(method, target)))
        headers.set(name, value);
      const response = await base(url, { ...init, headers });
      provider.noteResponse(target, response);
      // One retry for a 401 (new token), and one for a DPoP nonce challenge (RFC 9449 §9).
      const nonceChallenge = /use_dpop_nonce/.test(response.headers.get('www-authenticate') ?? '');
      if (response.status === 401 && (nonceChallenge ? nonceRetries++ : unauthorizedRetries++) === 0) {
        await response.body?.cancel();
        if (await provider.onUnauthorized(response)) continue;
      } else if (response.status === 403) {
        // onForbidden throws AuthError('step_up_limit') once the budget is spent, ending the loop.
        const retry = await provider.onForbidden(response);
        if (retry) {
          await response.body?.cancel();
          continue;
        }
      } else if (response.ok) provider.noteSuccess();
      return response;
    }
  };
}
