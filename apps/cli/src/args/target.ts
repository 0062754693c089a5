import { UsageError } from './usage-error.js';

/** Where the server is: a URL (HTTP, WebSocket or gRPC) or a command to spawn and speak stdio with. */
export type Target =
  | { readonly kind: 'http'; readonly url: URL }
  | { readonly kind: 'ws'; readonly url: URL }
  /** `grpc://host:port` (plaintext) or `grpcs://host:port` (TLS): the gRPC tunnel `mcp.transport.v1.Mcp/Session`. */
  | { readonly kind: 'grpc'; readonly url: URL }
  /** A ws(s) and an http(s) URL of one server: WebSocket first, Streamable HTTP when it fails. */
  | { readonly kind: 'failover'; readonly url: URL; readonly http: URL }
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] };

const SCHEMES: Readonly<Record<string, 'http' | 'ws' | 'grpc'>> = {
  'http:': 'http',
  'https:': 'http',
  'ws:': 'ws',
  'wss:': 'ws',
  'grpc:': 'grpc',
  'grpcs:': 'grpc',
};

/**
 * Separates the target from a command's own positionals. With `--`, what follows is the stdio server
 * and every positional belongs to the command. Otherwise the target is the **last** positional and must
 * be an http(s), ws(s) or grpc(s) URL: taking the last one keeps `x-mcp read https://site/doc http://host/mcp`
 * unambiguous. When the last two are a ws(s) and an http(s) URL (in either order), they are one server
 * reached two ways: WebSocket first, failing over to Streamable HTTP (and back once WebSocket returns).
 *
 * @example
 * ```ts
 * resolveTarget({ positionals: ['echo', 'a=1', 'http://127.0.0.1:3000/mcp'], serverCommand: undefined });
 * // { target: { kind: 'http', url }, rest: ['echo', 'a=1'] }
 * ```
 */
export function resolveTarget(input: {
  positionals: readonly string[];
  serverCommand: readonly string[] | undefined;
  command?: string | undefined;
}): { target: Target; rest: readonly string[] } {
  const { positionals, serverCommand, command } = input;
  if (serverCommand !== undefined) {
    const [program, ...args] = serverCommand;
    if (program === undefined || program === '') {
      throw new UsageError('nothing after --: give the server command, e.g. -- node server.js', { command });
    }
    return { target: { kind: 'stdio', command: program, args }, rest: positionals };
  }
  const last = positionals.at(-1);
  const hint =
    'give the server URL last (http://…, https://…, ws://…, wss://…, grpc://…, grpcs://…) or -- <command> [args…]';
  if (last === undefined) throw new UsageError(`missing target: ${hint}`, { command });
  const kind = SCHEMES[schemeOf(last)];
  if (kind === undefined) {
    throw new UsageError(`missing target: '${last}' is not a server URL; ${hint}`, { command });
  }
  const url = parseUrl(last, command);
  if (kind === 'grpc')
    return { target: { kind, url: grpcUrl(url, last, command) }, rest: positionals.slice(0, -1) };
  const before = positionals.at(-2);
  const otherKind = before === undefined ? undefined : SCHEMES[schemeOf(before)];
  if (otherKind !== undefined && otherKind !== 'grpc' && otherKind !== kind) {
    const other = parseUrl(before!, command);
    const [ws, http] = kind === 'ws' ? [url, other] : [other, url];
    return { target: { kind: 'failover', url: ws, http }, rest: positionals.slice(0, -2) };
  }
  return { target: { kind, url }, rest: positionals.slice(0, -1) };
}

function parseUrl(text: string, command: string | undefined): URL {
  try {
    return new URL(text);
  } catch {
    throw new UsageError(`invalid target URL '${text}'`, { command });
  }
}

/** A gRPC target names a host and a port, nothing else: the service path is fixed by the proto. */
function grpcUrl(url: URL, text: string, command: string | undefined): URL {
  if (
    url.hostname === '' ||
    url.port === '' ||
    (url.pathname !== '' && url.pathname !== '/') ||
    url.search !== ''
  ) {
    throw new UsageError(`invalid gRPC target '${text}': give grpc://host:port or grpcs://host:port`, {
      command,
    });
  }
  return url;
}

function schemeOf(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(value);
  return match?.[1]?.toLowerCase() ?? '';
}

/** The target as a person wrote it: the URL, or the server command line. */
export function describeTarget(target: Target): string {
  if (target.kind === 'stdio') return [target.command, ...target.args].join(' ');
  return target.kind === 'failover' ? `${target.url.href} (then ${target.http.href})` : target.url.href;
}
