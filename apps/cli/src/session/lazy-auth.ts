import { readFile } from 'node:fs/promises';
import type { CliAuth, CliAuthOptions, CliFetch } from './auth.js';

/** OAuth for one http(s) target, set up only when needed. */
export interface LazyCliAuth {
  /** The HTTP transports' `fetch`. */
  readonly fetch: CliFetch;
  /** True while the user is at the authorization server. */
  readonly interacting: () => boolean;
  /** True once the user was sent to the authorization server. */
  readonly authorized: () => boolean;
  close(): Promise<void>;
}

/**
 * Most servers are not protected: loading `@x/auth` (about 50 ms) and opening the loopback listener are
 * put off until the server answers 401, or done at once when tokens for it are cached. On that first
 * 401 the request is sent again through `authFetch`, which runs the flow (the transports' bodies are
 * strings, so they can be sent twice).
 *
 * @example
 * ```ts
 * const auth = lazyCliAuth({ serverUrl, terminal, noBrowser: false });
 * new StreamableHttpClientTransport(serverUrl, { fetch: auth.fetch });
 * ```
 */
export function lazyCliAuth(options: CliAuthOptions): LazyCliAuth {
  let auth: Promise<CliAuth> | undefined;
  let started: CliAuth | undefined;
  let closed = false;
  const start = (): Promise<CliAuth> => {
    auth ??= import('./auth.js').then(async ({ startCliAuth }) => {
      started = await startCliAuth(options);
      return started;
    });
    return auth;
  };
  const cached = hasCachedTokens(options.serverUrl, options.terminal.io.env);
  return {
    fetch: async (url, init) => {
      if (auth === undefined && !(await cached)) {
        const response = await fetch(url, init);
        if (response.status !== 401 || new URL(url).origin !== options.serverUrl.origin || closed)
          return response;
        await response.body?.cancel();
      }
      return (await start()).fetch(url, init);
    },
    interacting: () => started?.interacting() ?? false,
    authorized: () => started?.authorized() ?? false,
    close: async () => {
      closed = true;
      await (await auth?.catch(() => undefined))?.close();
    },
  };
}

/** Whether the token file has an entry for this server (then every request needs the token). */
async function hasCachedTokens(serverUrl: URL, env: NodeJS.ProcessEnv): Promise<boolean> {
  const { tokenFile } = await import('./token-file.js');
  let text: string;
  try {
    text = await readFile(tokenFile(env), 'utf8');
  } catch {
    return false;
  }
  try {
    const entries: unknown = JSON.parse(text);
    return typeof entries === 'object' && entries !== null && Object.hasOwn(entries, serverUrl.href);
  } catch {
    return true; // unreadable: let the token store report it
  }
}
