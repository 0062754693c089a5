import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { VersionSelection } from '@x/client';
import {
  isSupportedProtocolVersion,
  LOGGING_LEVELS,
  type LoggingLevel,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@x/protocol';
import type { ParsedArgs } from './parsed-args.js';
import { readTokenFile } from './read-token-file.js';
import type { Target } from './target.js';
import { UsageError } from './usage-error.js';

/** The connection and output options of every command that talks to a server. */
export interface ClientOptions {
  /** `-H` headers, plus `authorization` from `--token` / `--token-file`. */
  readonly headers: Readonly<Record<string, string>>;
  /** `--no-browser`: an OAuth authorization only prints its URL. */
  readonly noBrowser: boolean;
  readonly env: Readonly<Record<string, string>>;
  /** `--root` directories as absolute `file://` URIs, answered to `roots/list`. */
  readonly roots: readonly { uri: string; name: string }[];
  readonly timeout: number | undefined;
  /** `--retry <n>`: retries of a request safe to repeat (and restarts of a crashed stdio server). */
  readonly retry: number | undefined;
  /** `listen --heartbeat <ms>`: the heartbeat's interval (and each ping's timeout); 0 off. */
  readonly heartbeat: number | undefined;
  readonly protocolVersion: VersionSelection;
  /** `http` / `sse`: force one of the two HTTP transports instead of Streamable HTTP with SSE fallback. */
  readonly transport: 'http' | 'sse' | 'ws' | 'stdio' | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly json: boolean;
  readonly out: string | undefined;
}

/** The environment variable a bearer token may come from (not the command line, which others can see). */
export const TOKEN_ENV = 'X_MCP_TOKEN';

// RFC 6750 §2.1 b64token: also keeps a pasted newline or space out of the header.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Reads and checks the client options of a parsed command line; a bad value is a `UsageError`. */
export function readClientOptions(args: ParsedArgs): ClientOptions {
  const command = args.command;
  const one = (name: string): string | undefined => args.values.get(name)?.at(-1);
  const legacy = args.flags.has('legacy');
  const pinned = one('protocol-version');
  if (pinned !== undefined && !isSupportedProtocolVersion(pinned)) {
    throw new UsageError(
      `unsupported --protocol-version ${pinned}; x-mcp speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
      { command },
    );
  }
  if (legacy && pinned !== undefined) {
    throw new UsageError('give either --legacy or --protocol-version, not both', { command });
  }
  const logLevel = one('log-level');
  if (logLevel !== undefined && !(LOGGING_LEVELS as readonly string[]).includes(logLevel)) {
    throw new UsageError(`unknown --log-level ${logLevel}; use one of ${LOGGING_LEVELS.join(', ')}`, {
      command,
    });
  }
  const transport = one('transport');
  if (transport !== undefined && !['http', 'sse', 'ws', 'stdio'].includes(transport)) {
    throw new UsageError(`unknown --transport ${transport}; use http, sse, ws or stdio`, { command });
  }
  const headers = parseHeaders(args.values.get('header') ?? [], command);
  const token = readToken(args);
  if (token !== undefined) {
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      throw new UsageError(`give either ${token.from} or -H Authorization, not both`, { command });
    }
    if (!B64TOKEN.test(token.value)) {
      throw new UsageError(`${token.from} expects a bearer token (letters, digits, -._~+/ and trailing =)`, {
        command,
      });
    }
    headers['authorization'] = `Bearer ${token.value}`;
  }
  return {
    headers,
    noBrowser: args.flags.has('no-browser'),
    env: parseEnv(args.values.get('env') ?? [], command),
    roots: (args.values.get('root') ?? []).map((dir) => ({
      uri: pathToFileURL(resolve(dir)).href,
      name: basename(resolve(dir)),
    })),
    timeout: parseTimeout(one('timeout'), command),
    retry: parseRetry(one('retry'), command),
    heartbeat: parseHeartbeat(one('heartbeat'), command),
    protocolVersion: legacy ? 'legacy' : (pinned ?? 'auto'),
    transport: transport as ClientOptions['transport'],
    logLevel: logLevel as LoggingLevel | undefined,
    json: args.flags.has('json'),
    out: one('out'),
  };
}

/** `--token <token>` or `--token-file <path>` (not both); undefined when neither is given. */
function readToken(args: ParsedArgs): { value: string; from: string } | undefined {
  const command = args.command;
  const inline = args.values.get('token')?.at(-1);
  const path = args.values.get('token-file')?.at(-1);
  if (inline !== undefined && path !== undefined) {
    throw new UsageError('give either --token or --token-file, not both', { command });
  }
  if (inline !== undefined) return { value: inline, from: '--token' };
  if (path === undefined) return undefined;
  return { value: readTokenFile(path, { option: '--token-file', command }), from: '--token-file' };
}

/**
 * The token in `X_MCP_TOKEN`, as an `authorization` header for a URL target that has no other
 * credential (`--token`, `--token-file` and `-H Authorization` win; stdio servers never get it).
 *
 * @example
 * ```ts
 * const options = withEnvironmentToken(readClientOptions(parsed), target, process.env);
 * ```
 */
export function withEnvironmentToken(
  options: ClientOptions,
  target: Target,
  env: Readonly<Record<string, string | undefined>>,
  command?: string,
): ClientOptions {
  const token = env[TOKEN_ENV];
  if (token === undefined || token === '' || target.kind === 'stdio') return options;
  if (Object.keys(options.headers).some((name) => name.toLowerCase() === 'authorization')) return options;
  if (!B64TOKEN.test(token.trim())) {
    throw new UsageError(
      `${TOKEN_ENV} holds no bearer token (letters, digits, -._~+/ and trailing =); unset it or fix it`,
      { command },
    );
  }
  return { ...options, headers: { ...options.headers, authorization: `Bearer ${token.trim()}` } };
}

/**
 * What fetch refuses in a header value (and what would split a header on the wire): control
 * characters other than tab, and anything past U+00FF.
 */
function isBadHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return true;
  }
  return false;
}

/**
 * `-H 'Name: value'` entries. Errors show at most the header's name, never its value: a mistyped
 * `-H 'Authorization Bearer …'` must not print the token.
 */
function parseHeaders(raw: readonly string[], command: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  raw.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const name = colon === -1 ? '' : entry.slice(0, colon).trim();
    // RFC 9110 field names are tokens: no spaces, no separators.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(
        `-H expects 'Name: value'; header ${index + 1} has no valid name before ':' (its text is not shown, it may hold a secret)`,
        { command },
      );
    }
    const value = entry.slice(colon + 1).trim();
    if (isBadHeaderValue(value)) {
      throw new UsageError(
        `-H ${name}: the value holds a line break or another control character (value not shown)`,
        { command },
      );
    }
    headers[name] = value;
  });
  return headers;
}

function parseEnv(raw: readonly string[], command: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  raw.forEach((entry, index) => {
    const eq = entry.indexOf('=');
    // The text is not echoed: a mistyped `-e` may be the value alone, a secret.
    if (eq <= 0) {
      throw new UsageError(`-e expects KEY=VALUE; entry ${index + 1} has no name before '=' (not shown)`, {
        command,
      });
    }
    env[entry.slice(0, eq)] = entry.slice(eq + 1);
  });
  return env;
}

function parseHeartbeat(raw: string | undefined, command: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(ms)) {
    throw new UsageError(`--heartbeat expects a number of milliseconds (0 turns it off), got '${raw}'`, {
      command,
    });
  }
  return ms;
}

function parseTimeout(raw: string | undefined, command: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new UsageError(`--timeout expects a positive number of milliseconds, got '${raw}'`, { command });
  }
  return ms;
}

function parseRetry(raw: string | undefined, command: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(count) || count > 100) {
    throw new UsageError(`--retry expects a number of retries from 0 to 100, got '${raw}'`, { command });
  }
  return count;
}
