// Everything x-mcp does with `@x/auth` on the client side lives here, so the wiring is in one place:
// where tokens are kept, how the user is sent to the authorization server, and what the HTTP
// transports are given (`fetch: authFetch(provider)`).
import { rm } from 'node:fs/promises';
import { authFetch, OAuthClientProvider } from '@x/auth';
import { FileTokenStore, type LoopbackRedirect, startLoopbackRedirect } from '@x/auth/node';
import type { Terminal } from '../output/terminal.js';
import { isOpenableUrl, openBrowser } from './open-browser.js';
import { tokenFile } from './token-file.js';

export { configDir, tokenFile } from './token-file.js';

/** The transports' `fetch` option shape. */
export type CliFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** What x-mcp says to an authorization server when it registers itself (RFC 7591). */
const CLIENT_METADATA = { client_name: 'x-mcp' };

export interface CliAuthOptions {
  readonly serverUrl: URL;
  readonly terminal: Terminal;
  /** `--no-browser`: only print the URL. */
  readonly noBrowser: boolean;
}

/** OAuth for one server: the provider, its loopback redirect listener, and `close()` for both. */
export interface CliAuth {
  readonly provider: OAuthClientProvider;
  /** For the HTTP transports: every request to the server carries the token; a 401 runs the flow. */
  readonly fetch: CliFetch;
  /** True while the user is at the authorization server (connect timeouts wait for them). */
  readonly interacting: () => boolean;
  /** True once the user was sent to the authorization server (not for a refresh). */
  readonly authorized: () => boolean;
  close(): Promise<void>;
}

/**
 * Sets up OAuth for `serverUrl`: a loopback redirect listener on 127.0.0.1 (RFC 8252 §7.3) and an
 * `OAuthClientProvider` whose tokens live in the token file. On a 401 the provider discovers the
 * authorization server, registers x-mcp if needed, and sends the user to the authorization URL
 * (printed on stderr; a browser opens when there is one).
 *
 * @example
 * ```ts
 * const auth = await startCliAuth({ serverUrl, terminal, noBrowser: false });
 * try { await auth.provider.login(); } finally { await auth.close(); }
 * ```
 */
export async function startCliAuth(options: CliAuthOptions): Promise<CliAuth> {
  const { serverUrl, terminal } = options;
  let interacting = false;
  let authorized = false;
  const loopback: LoopbackRedirect = await startLoopbackRedirect({
    openUrl: (url) => {
      // The OAuth client already refuses such metadata; this is the last check before the opener.
      if (!isOpenableUrl(url))
        throw new Error(
          `refusing to open a ${url.protocol} authorization URL (only https:, or http: on loopback)`,
        );
      interacting = true;
      terminal.err(`To authorize x-mcp for ${serverUrl.href}, open this URL in a browser:`);
      terminal.err(`  ${url.href}`);
      terminal.err(terminal.errStyle.dim('Waiting for the authorization server to redirect back…'));
      if (!options.noBrowser && browserAvailable(terminal))
        openBrowser(url, { platform: process.platform, env: terminal.io.env });
    },
  });
  // close() gives up a pending authorization at once, so nothing waits for a browser that never comes.
  let giveUp: (error: Error) => void = () => {};
  const closed = new Promise<never>((_, reject) => {
    giveUp = reject;
  });
  closed.catch(() => {});
  const provider = new OAuthClientProvider({
    serverUrl,
    redirectUri: loopback.redirectUri,
    authorize: async (url) => {
      authorized = true;
      try {
        return await Promise.race([loopback.authorize(url), closed]);
      } finally {
        interacting = false;
      }
    },
    clientMetadata: CLIENT_METADATA,
    store: new FileTokenStore({ path: tokenFile(terminal.io.env) }),
  });
  const fetchWithAuth = authFetch(provider);
  return {
    provider,
    fetch: (url, init) => fetchWithAuth(url, init ?? {}),
    interacting: () => interacting,
    authorized: () => authorized,
    close: () => {
      giveUp(new Error('x-mcp stopped waiting for the authorization'));
      return loopback.close();
    },
  };
}

/**
 * Forgets the cached tokens (and client registration) of one server, or every server when `serverUrl`
 * is undefined (the token file is removed). Resolves with what was removed, for the message.
 */
export async function forget(serverUrl: URL | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const path = tokenFile(env);
  if (serverUrl === undefined) {
    await rm(path, { force: true });
    return path;
  }
  const store = new FileTokenStore({ path });
  // The provider's key for a server is its URL; `clear()` removes exactly that entry.
  const provider = new OAuthClientProvider({ serverUrl, redirectUri: 'http://127.0.0.1/callback', store });
  await provider.clear();
  return serverUrl.href;
}

/** A browser is worth starting only for a person at a terminal with a display (or on macOS/Windows). */
function browserAvailable(terminal: Terminal): boolean {
  if (!terminal.stderrIsTty) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  const env = terminal.io.env;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}
