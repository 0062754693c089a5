import type { Transport } from '@x/protocol/core';
import type { Terminal } from '../output/terminal.js';
import type { ClientCredentials } from '../session/auth.js';
import type { LazyCliAuth } from '../session/lazy-auth.js';

/** How the bridge authorizes at a remote http(s) upstream. */
export interface RemoteAuthOptions {
  readonly url: URL;
  readonly terminal: Terminal;
  /** `--no-browser`: only print the authorization URL (on stderr). */
  readonly noBrowser: boolean;
  /** `--client-id` with its secret: the client_credentials grant instead of a browser sign-in. */
  readonly clientCredentials: ClientCredentials | undefined;
}

/** The upstream of `bridge -- https://…`: a transport per downstream session, one OAuth client for all. */
export interface RemoteUpstream {
  readonly open: () => Promise<Transport>;
  close(): Promise<void>;
}

/**
 * A remote MCP server as the bridge's upstream, with OAuth (`@x/auth`) when it answers 401: the token
 * file's tokens, refreshed when due; a browser sign-in (opened even though a desktop host shows no
 * stderr) when there are none or the refresh token is refused — once, never in a loop; or the
 * client_credentials grant with `--client-id`.
 *
 * Streamable HTTP first, legacy HTTP+SSE when the server refuses it with 400/404/405
 * (`SseFallbackTransport`). The sign-in happens before the upstream `Client` connects (`signInFirst`): a person at the consent
 * page takes longer than the client's era probe (10 s) and its request timeout (60 s).
 *
 * @example
 * ```ts
 * const upstream = await remoteUpstream({ url, terminal, noBrowser: false, clientCredentials: undefined });
 * createBridge({ upstream: upstream.open, upstreamName: url.href });
 * ```
 */
export async function remoteUpstream(options: RemoteAuthOptions): Promise<RemoteUpstream> {
  const [{ lazyCliAuth }, { StreamableHttpClientTransport }, { SseFallbackTransport }] = await Promise.all([
    import('../session/lazy-auth.js'),
    import('@x/transport-streamable-http'),
    import('./sse-fallback-transport.js'),
  ]);
  const auth = lazyCliAuth({
    serverUrl: options.url,
    terminal: options.terminal,
    noBrowser: options.noBrowser,
    browserWithoutTerminal: true,
    clientCredentials: options.clientCredentials,
  });
  return {
    open: async () => {
      await signInFirst(options.url, auth);
      return new SseFallbackTransport({
        primary: new StreamableHttpClientTransport(options.url, { fetch: auth.fetch }),
        // Loaded only when a server refuses Streamable HTTP.
        fallback: async () => {
          const { SseClientTransport } = await import('@x/transport-sse');
          return new SseClientTransport(options.url, { fetch: auth.fetch });
        },
        onfallback: (reason) =>
          options.terminal.warn(
            `${options.url.href} refused Streamable HTTP (${reason.message.split('\n')[0]}); using legacy HTTP+SSE`,
          ),
      });
    },
    close: () => auth.close(),
  };
}

/**
 * One GET to the server through the OAuth fetch: a protected server answers 401 to it (the MCP
 * "Authorization" spec: every request without a valid token), which runs refresh or sign-in now; any
 * other answer (an open stream, 405, 400 without a session) is dropped unread.
 */
async function signInFirst(url: URL, auth: LazyCliAuth): Promise<void> {
  const controller = new AbortController();
  try {
    const response = await auth.fetch(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    await response.body?.cancel().catch(() => undefined);
  } finally {
    controller.abort();
  }
}
