import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from '../auth-error.js';

/**
 * How long `startLoopbackRedirect` waits for the browser to come back (`timeoutMs`): 5 minutes, time for
 * a user to sign in (and find a second factor) without leaving a port open for good.
 *
 * @example
 * ```ts
 * const redirect = await startLoopbackRedirect({ timeoutMs: 2 * DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS = 300_000;

/** Options of `startLoopbackRedirect`. */
export interface LoopbackRedirectOptions {
  /** Shows the authorization URL to the user: open a browser, print it. Required. */
  openUrl: (url: URL) => void | Promise<void>;
  /** Port to listen on; 0 picks a free one (RFC 8252 §7.3: the AS must accept any loopback port). */
  port?: number | undefined;
  /** Path of the redirect URI. Default `/callback`. */
  path?: string | undefined;
  /** How long to wait for the browser to come back. Default {@link DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS} (5 min). */
  timeoutMs?: number | undefined;
}

/** A running loopback redirect receiver. */
export interface LoopbackRedirect extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/callback`: the provider's `redirectUri`. */
  redirectUri: string;
  /** The provider's `authorize` option: opens the URL, resolves with the redirect the browser brought. */
  authorize: (authorizationUrl: URL) => Promise<string>;
  close(): Promise<void>;
}

const PAGE = '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>You can close this window.</p>';

/**
 * Receives the authorization redirect on 127.0.0.1 (RFC 8252 §7.3, "loopback interface redirection")
 * for command-line and desktop clients. Only the redirect that carries the `state` of a pending
 * authorization is taken; anything else gets 404.
 *
 * @example
 * ```ts
 * await using loopback = await startLoopbackRedirect({ openUrl: (url) => console.error(`Open ${url}`) });
 * const provider = new OAuthClientProvider({ serverUrl, redirectUri: loopback.redirectUri, authorize: loopback.authorize });
 * ```
 */
export async function startLoopbackRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS;
  const pending = new Map<string, (callback: string) => void>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const resolve = url.pathname === path ? pending.get(url.searchParams.get('state') ?? '') : undefined;
    if (req.method !== 'GET' || resolve === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
    resolve(`${redirectUri}${url.search}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    redirectUri,
    authorize: async (authorizationUrl) => {
      // Whatever openUrl does (a browser opener, a shell), it only ever gets a web URL: an
      // authorization server may not make this machine open file: or a custom scheme handler.
      if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:')
        throw new AuthError(
          'invalid_metadata',
          `refusing to open a ${authorizationUrl.protocol} authorization URL (only https: and http:)`,
        );
      const state = authorizationUrl.searchParams.get('state');
      if (state === null) throw new AuthError('interaction_required', 'the authorization URL has no state');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arrived = new Promise<string>((resolve, reject) => {
        pending.set(state, resolve);
        timer = setTimeout(
          () =>
            reject(new AuthError('interaction_required', `no redirect within ${timeoutMs} ms (timeoutMs)`)),
          timeoutMs,
        );
      });
      try {
        await options.openUrl(authorizationUrl);
        return await arrived;
      } finally {
        clearTimeout(timer);
        pending.delete(state);
      }
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
