// Everything x-mcp does with `@x/auth` on the client side lives here, so the wiring is in one place:
// where tokens are kept, how the user is sent to the authorization server, and what the HTTP
// transports are given (`fetch: authFetch(provider)`).
import { rm } from 'node:fs/promises';
import { authFetch, InMemoryTokenStore, OAuthClientProvider } from '@x/auth';
import { FileTokenStore, type LoopbackRedirect, startLoopbackRedirect } from '@x/auth/node';
import type { Terminal } from '../output/terminal.js';
import { isOpenableUrl, openBrowser } from './open-browser.js';
import { DEFAULT_MAX_LOGINS, SignInRefusedError } from './sign-in-refused-error.js';
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
  /**
   * Open the browser even when stderr is no terminal: a desktop host that runs `bridge --serve stdio`
   * keeps x-mcp's stderr in a log file nobody reads while waiting. Default false (only at a terminal).
   */
  readonly browserWithoutTerminal?: boolean | undefined;
  /** A machine client (`--client-id` + secret): the client_credentials grant, no browser, no listener. */
  readonly clientCredentials?: ClientCredentials | undefined;
  /**
   * Sign-ins in a row the server may refuse (401 after each) before x-mcp stops signing in and fails
   * with `SignInRefusedError`; a request the server accepts starts the count over. Default
   * {@link DEFAULT_MAX_LOGINS} (1): a refused refresh token costs one new sign-in, never a loop.
   */
  readonly maxLogins?: number | undefined;
}

/** A pre-registered confidential client for the OAuth client_credentials grant (RFC 6749 §4.4). */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
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
  const { serverUrl } = options;
  const maxLogins = options.maxLogins ?? DEFAULT_MAX_LOGINS;
  const gate = { logins: 0, interacting: false, authorized: false };
  const credentials = options.clientCredentials;
  const { provider, close } =
    credentials === undefined
      ? await startSignIn(options, gate, maxLogins)
      : { provider: machineClient(serverUrl, credentials), close: () => Promise.resolve() };
  const fetchWithAuth = authFetch(provider);
  return {
    provider,
    fetch: async (url, init) => {
      let response: Response;
      try {
        response = await fetchWithAuth(url, init ?? {});
      } catch (error) {
        // The provider wraps what `authorize` threw (a redacted copy, by name): give the error itself.
        throw isRefusal(error) ? new SignInRefusedError(serverUrl, maxLogins) : error;
      }
      // The server took the credentials (a 405 to a GET says nothing about them): the next refusal
      // may cost a sign-in again.
      if (response.ok && new URL(url).origin === serverUrl.origin) gate.logins = 0;
      return response;
    },
    interacting: () => gate.interacting,
    authorized: () => gate.authorized,
    close,
  };
}

/**
 * The client_credentials provider of `--client-id`. Its tokens are kept in memory: a machine client gets
 * a new token per run, and they never mix with a person's cached for the same server.
 */
function machineClient(serverUrl: URL, credentials: ClientCredentials): OAuthClientProvider {
  return new OAuthClientProvider({
    serverUrl,
    grant: 'client_credentials',
    client: { ...credentials },
    clientMetadata: CLIENT_METADATA,
    store: new InMemoryTokenStore(),
  });
}

interface SignIn {
  readonly provider: OAuthClientProvider;
  close(): Promise<void>;
}

/**
 * The authorization code flow: a loopback redirect listener on a port the OS picks (so bridges
 * signing in at once never collide; the redirect URI names the port bound) and a provider whose
 * tokens live in the token file. At most `maxLogins` sign-ins in a row without an accepted request.
 */
async function startSignIn(
  options: CliAuthOptions,
  gate: { logins: number; interacting: boolean; authorized: boolean },
  maxLogins: number,
): Promise<SignIn> {
  const { serverUrl, terminal } = options;
  const loopback: LoopbackRedirect = await startLoopbackRedirect({
    openUrl: (url) => {
      // The OAuth client already refuses such metadata; this is the last check before the opener.
      if (!isOpenableUrl(url))
        throw new Error(
          `refusing to open a ${url.protocol} authorization URL (only https:, or http: on loopback)`,
        );
      gate.interacting = true;
      terminal.err(`To authorize x-mcp for ${serverUrl.href}, open this URL in a browser:`);
      terminal.err(`  ${url.href}`);
      terminal.err(terminal.errStyle.dim('Waiting for the authorization server to redirect back…'));
      if (!options.noBrowser && browserAvailable(terminal, options.browserWithoutTerminal === true))
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
      // The server refused what the last sign-in gave (or its refresh token): signing in again would
      // only open the browser in a loop.
      if (gate.logins >= maxLogins) throw new SignInRefusedError(serverUrl, maxLogins);
      gate.logins += 1;
      gate.authorized = true;
      try {
        return await Promise.race([loopback.authorize(url), closed]);
      } finally {
        gate.interacting = false;
      }
    },
    clientMetadata: CLIENT_METADATA,
    store: new FileTokenStore({ path: tokenFile(terminal.io.env) }),
  });
  return {
    provider,
    close: () => {
      giveUp(new Error('x-mcp stopped waiting for the authorization'));
      return loopback.close();
    },
  };
}

/** Whether an authorization failed because `authorize` refused to sign in again. */
function isRefusal(error: unknown): boolean {
  for (let link = error, depth = 0; typeof link === 'object' && link !== null && depth < 8; depth++) {
    if ((link as { name?: unknown }).name === 'SignInRefusedError') return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
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

/**
 * A browser is worth starting for a person at a terminal (or, `withoutTerminal`, behind a desktop host)
 * with a display (or on macOS/Windows).
 */
function browserAvailable(terminal: Terminal, withoutTerminal: boolean): boolean {
  if (!terminal.stderrIsTty && !withoutTerminal) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  const env = terminal.io.env;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}
