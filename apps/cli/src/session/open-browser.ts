import { spawn } from 'node:child_process';

/** Where the browser opener is run: the platform, and the environment (its PATH finds the opener). */
export interface OpenBrowserOptions {
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
}

/** Loopback hosts (RFC 8252 §7.3), where `http:` is acceptable. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether x-mcp will hand `url` to the system's opener: `https:`, or `http:` on a loopback host. The
 * opener decides what runs for a URL (`file:` opens a local file, a custom scheme starts whatever
 * registered it), so an authorization server must not choose the scheme (CVE-2025-6514).
 *
 * @example
 * ```ts
 * isOpenableUrl(new URL('file:///etc/passwd')); // false
 * ```
 */
export function isOpenableUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

/**
 * Opens `url` in the user's browser, never through a shell: the URL is one argument of `open` (macOS),
 * `xdg-open` (elsewhere) or `rundll32 url.dll,FileProtocolHandler` (Windows, where `cmd /c start`
 * would read `&`, `|` and `%VAR%` in the URL). False, and nothing run, for a URL `isOpenableUrl`
 * refuses. A missing opener is ignored: the URL is printed too.
 *
 * @example
 * ```ts
 * openBrowser(authorizationUrl, { platform: process.platform, env: process.env });
 * ```
 */
export function openBrowser(url: URL, options: OpenBrowserOptions): boolean {
  if (!isOpenableUrl(url)) return false;
  const [command, args]: [string, string[]] =
    options.platform === 'darwin'
      ? ['open', [url.href]]
      : options.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url.href]]
        : ['xdg-open', [url.href]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false, env: options.env });
    // No browser opener installed: the printed URL is enough.
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    // Same: the URL is on stderr.
    return false;
  }
}
