import type { ParsedArgs } from '../args/parsed-args.js';
import { resolveTarget } from '../args/target.js';
import { UsageError } from '../args/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import type { Terminal } from '../output/terminal.js';

/** A checked `login` / `logout` command line, ready to run. */
export interface PreparedAuthCommand {
  /** The server URL (undefined: `logout` of every server). */
  readonly url: URL | undefined;
  readonly run: (context: { terminal: Terminal; signal: AbortSignal }) => Promise<ExitCode>;
}

function serverUrl(args: ParsedArgs, command: string): URL {
  if (args.serverCommand !== undefined) {
    throw new UsageError(`${command} takes a server URL; stdio servers need no authorization`, { command });
  }
  const { target, rest } = resolveTarget({
    positionals: args.positionals,
    serverCommand: undefined,
    command,
  });
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest.join(' ')}`, { command });
  if (target.kind !== 'http') {
    throw new UsageError(`${command} takes an http(s) URL (OAuth protects HTTP servers)`, { command });
  }
  return target.url;
}

/**
 * `x-mcp login <url>`: runs the OAuth authorization for the server now (discovery, registration, the
 * user's consent through the loopback redirect) and caches the tokens; later commands use them.
 * Prints what was granted, never the token.
 *
 * @example
 * ```ts
 * const { run } = prepareLogin(parsed);
 * process.exitCode = await run({ terminal, signal });
 * ```
 */
export function prepareLogin(args: ParsedArgs): PreparedAuthCommand {
  const url = serverUrl(args, 'login');
  return {
    url,
    run: async ({ terminal, signal }) => {
      const { startCliAuth, tokenFile } = await import('./auth.js');
      const auth = await startCliAuth({ serverUrl: url, terminal, noBrowser: args.flags.has('no-browser') });
      try {
        const aborted = new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true }),
        );
        await Promise.race([auth.provider.login(), aborted]);
        const tokens = await auth.provider.tokens();
        const scope = tokens?.scope === undefined || tokens.scope === '' ? '' : `, scope: ${tokens.scope}`;
        const expires =
          tokens?.expiresAt === undefined
            ? ''
            : `, expires ${new Date(tokens.expiresAt * 1000).toISOString()}${tokens.refreshToken === undefined ? '' : ' (refreshable)'}`;
        terminal.out(`Logged in to ${url.href}${scope}${expires}`);
        terminal.err(terminal.errStyle.dim(`Tokens cached in ${tokenFile(terminal.io.env)}`));
        return ExitCode.Ok;
      } finally {
        await auth.close();
      }
    },
  };
}

/**
 * `x-mcp logout [<url>]`: forgets the cached tokens and client registration of one server, or removes
 * the whole token file when no URL is given.
 *
 * @example
 * ```ts
 * await prepareLogout(parsed).run({ terminal, signal });
 * ```
 */
export function prepareLogout(args: ParsedArgs): PreparedAuthCommand {
  const url =
    args.positionals.length === 0 && args.serverCommand === undefined ? undefined : serverUrl(args, 'logout');
  return {
    url,
    run: async ({ terminal }) => {
      const { forget } = await import('./auth.js');
      const removed = await forget(url, terminal.io.env);
      terminal.out(
        url === undefined ? `Logged out of every server (removed ${removed})` : `Logged out of ${removed}`,
      );
      return ExitCode.Ok;
    },
  };
}
