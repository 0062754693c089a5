import type { ParsedArgs } from '../args/parsed-args.js';
import { readTokenFile } from '../args/read-token-file.js';
import { UsageError } from '../args/usage-error.js';
import type { ClientCredentials } from '../session/auth.js';

/** The environment variable the client secret may come from (never the command line, which others see). */
export const CLIENT_SECRET_ENV = 'X_MCP_CLIENT_SECRET';

/** `--client-id` as read from the command line; the secret is found at run time (`resolve`). */
export interface UnresolvedCredentials {
  resolve(env: Readonly<Record<string, string | undefined>>): ClientCredentials;
}

/**
 * `--client-id <id>` with `--client-secret-file <path>` or `X_MCP_CLIENT_SECRET`: the bridge signs in
 * with the client_credentials grant. The secret never sits in argv; errors name the option, never the
 * secret. Undefined without `--client-id`.
 *
 * @example
 * ```ts
 * const credentials = readClientCredentials(parsed)?.resolve(process.env);
 * ```
 */
export function readClientCredentials(args: ParsedArgs): UnresolvedCredentials | undefined {
  const command = 'bridge';
  const clientId = args.values.get('client-id')?.at(-1);
  const secretFile = args.values.get('client-secret-file')?.at(-1);
  if (clientId === undefined) {
    if (secretFile !== undefined)
      throw new UsageError('--client-secret-file goes with --client-id', { command });
    return undefined;
  }
  // RFC 6749 appendix A.1 allows spaces too (VSCHAR); printable ASCII keeps a pasted newline out.
  if (!/^[!-~]+$/.test(clientId)) {
    throw new UsageError('--client-id expects a client ID of printable ASCII characters (no white space)', {
      command,
    });
  }
  const fromFile =
    secretFile === undefined
      ? undefined
      : readTokenFile(secretFile, { option: '--client-secret-file', command });
  return {
    resolve: (env) => {
      const secret = fromFile ?? env[CLIENT_SECRET_ENV]?.trim();
      if (secret === undefined || secret === '') {
        throw new UsageError(
          `--client-id needs the client's secret: --client-secret-file <path> or ${CLIENT_SECRET_ENV}`,
          { command },
        );
      }
      return { clientId, clientSecret: secret };
    },
  };
}
