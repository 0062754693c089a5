/**
 * Host and Origin validation against DNS rebinding (2025-11-25 and 2026-07-28 transports, "Security
 * Warning": servers MUST validate the Origin header; an invalid one gets 403 Forbidden). A rebinding
 * attack makes the victim's browser reach a server under the attacker's name, so it sends
 * `Host: evil.example` and `Origin: http://evil.example`. The Origin is checked on every bind address
 * against an allow-list (by default the loopback origins): a rebound request carries the attacker's
 * origin *and* a matching Host, so "same origin as the request" is no defence. The Host is checked where
 * the server knows its own names (a loopback bind, or `allowedHosts` given). Non-browser clients send no
 * Origin and pass on Host alone. One policy, shared by the Streamable HTTP, legacy SSE and WebSocket
 * servers.
 */

/**
 * Host names a server bound to the loopback interface is reached by.
 *
 * @example
 * ```ts
 * // Loopback names plus the public name the server is also reached by.
 * const guard = createDnsRebindingGuard({ allowedHosts: [...LOOPBACK_HOSTS, 'mcp.example.com'] });
 * ```
 */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The browser origins every server accepts by default: pages served from the loopback names
 * (`http(s)://localhost`, `127.0.0.1`, `[::1]`) on any port, e.g. a local dev UI on port 5173.
 *
 * @example
 * ```ts
 * // Keep the local dev UI working and add the production app.
 * const guard = createDnsRebindingGuard({ allowedOrigins: [...LOOPBACK_ORIGINS, 'https://app.example.com'] });
 * ```
 */
export const LOOPBACK_ORIGINS: readonly string[] = [
  'http://localhost:*',
  'https://localhost:*',
  'http://127.0.0.1:*',
  'https://127.0.0.1:*',
  'http://[::1]:*',
  'https://[::1]:*',
];

/**
 * The DNS-rebinding policy of an MCP server (Streamable HTTP, legacy SSE and WebSocket take the same
 * object as `dnsRebindingProtection`).
 *
 * @example
 * ```ts
 * // A server on 0.0.0.0 reached as mcp.example.com:8443 and used by one web app.
 * const guard = createDnsRebindingGuard({
 *   allowedHosts: ['mcp.example.com:8443'],
 *   allowedOrigins: ['https://app.example.com'],
 * });
 * ```
 */
export interface DnsRebindingOptions {
  /**
   * `Host` values to accept, e.g. `['localhost', 'mcp.example.com:8443']`; an entry without a port
   * accepts any port. Given, it is checked on every address; not given, the Host is checked only on a
   * loopback (or unknown) local address, against {@link LOOPBACK_HOSTS} (a server on another address is
   * reached by names it cannot guess).
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Browser `Origin`s to accept, on every address, e.g. `['https://app.example.com']`; `scheme://host:*`
   * accepts any port, `'*'` any origin (turns the Origin check off). Default: {@link LOOPBACK_ORIGINS}
   * plus the origins whose host is one of `allowedHosts` when that is given. A request without `Origin`
   * (not a browser) is not checked; `Origin: null` is refused unless `'*'` is listed.
   */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * What the guard reads of a request: a Web `Request` has this shape; so can a `node:http` request with
 * a small adapter.
 *
 * @example
 * ```ts
 * const view: GuardedRequest = { url: '', headers: { get: (name) => header(req.headers[name]) } };
 * ```
 */
export interface GuardedRequest {
  /** Consulted only when there is no `Host` header. */
  readonly url: string | URL;
  readonly headers: { get(name: string): string | null };
}

/**
 * Returns undefined when the request may pass, otherwise the reason for a 403. `localAddress` is the
 * socket's local address when the caller knows it: Host checking by default applies only on loopback
 * (or when unknown).
 *
 * @example
 * ```ts
 * const guard: DnsRebindingGuard = createDnsRebindingGuard();
 * async function serve(request: Request): Promise<Response> {
 *   const problem = guard(request);
 *   return problem === undefined ? handle(request) : new Response(problem, { status: 403 });
 * }
 * ```
 */
export type DnsRebindingGuard = (request: GuardedRequest, localAddress?: string) => string | undefined;

interface HostPattern {
  hostname: string;
  port: string | undefined;
}

// `name`, `name:port`, `[v6]`, `[v6]:port`; userinfo, paths or spaces make it no Host value at all.
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[^:[\]/@\s]+)(?::(\d{1,5}))?$/i;

function parseHost(value: string): HostPattern | undefined {
  const match = HOST_SYNTAX.exec(value.trim());
  if (match === null) return undefined;
  // `localhost.` names the same host as `localhost`; it must not slip past an exact comparison.
  return { hostname: (match[1] ?? '').toLowerCase().replace(/\.$/, ''), port: match[2] };
}

function matches(patterns: readonly HostPattern[], host: HostPattern): boolean {
  return patterns.some(
    (p) => p.hostname === host.hostname && (p.port === undefined || p.port === (host.port ?? '')),
  );
}

interface ParsedOrigin {
  scheme: string;
  hostname: string;
  /** The explicit or default port, as digits. */
  port: string;
}

function parseOrigin(origin: string): ParsedOrigin | undefined {
  let url: URL;
  try {
    url = new URL(origin.trim());
  } catch {
    return undefined;
  }
  // Opaque origins (`null`, `file:`, sandboxed frames) name no host that could be on a list.
  if (url.origin === 'null') return undefined;
  const scheme = url.protocol.slice(0, -1);
  const port = url.port === '' ? (scheme === 'https' || scheme === 'wss' ? '443' : '80') : url.port;
  return { scheme, hostname: url.hostname.toLowerCase().replace(/\.$/, ''), port };
}

/** An allowed origin; `port` undefined for `scheme://host:*`. */
interface OriginPattern {
  scheme: string;
  hostname: string;
  port: string | undefined;
}

function parseOriginPattern(entry: string): OriginPattern {
  const wildcard = /^([a-z][a-z0-9+.-]*):\/\/(.+):\*\/?$/i.exec(entry.trim());
  const parsed = parseOrigin(wildcard === null ? entry : `${wildcard[1]}://${wildcard[2]}`);
  if (parsed === undefined) throw new TypeError(`Invalid allowed origin: ${entry}`);
  return { ...parsed, port: wildcard === null ? parsed.port : undefined };
}

/**
 * True for a loopback socket address (`127.0.0.0/8`, `::1`, and their IPv4-mapped IPv6 forms): the
 * case where Host checking is on by default.
 *
 * @example
 * ```ts
 * isLoopbackAddress('::ffff:127.0.0.1'); // true
 * isLoopbackAddress('10.0.0.5'); // false
 * ```
 */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || plain.startsWith('127.') || plain === 'localhost';
}

/** The host of a request that sent no `Host` header (HTTP/1.0, or HTTP/2 with only `:authority`). */
function hostOfUrl(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * Builds the check once so each request only does string work. Throws `TypeError` for an entry of
 * `allowedHosts`/`allowedOrigins` that names no host/origin.
 *
 * @example
 * ```ts
 * const guard = createDnsRebindingGuard({ allowedOrigins: ['https://app.example.com'] });
 * if (guard(request, socket.localAddress) !== undefined) return new Response(null, { status: 403 });
 * ```
 */
export function createDnsRebindingGuard(options: DnsRebindingOptions = {}): DnsRebindingGuard {
  const toHost = (entry: string): HostPattern => {
    const parsed = parseHost(entry);
    if (parsed === undefined) throw new TypeError(`Invalid allowed host: ${entry}`);
    return parsed;
  };
  const explicitHosts = options.allowedHosts?.map(toHost);
  const hosts = explicitHosts ?? LOOPBACK_HOSTS.map(toHost);
  const anyOrigin = options.allowedOrigins?.includes('*') === true;
  const origins = (options.allowedOrigins ?? LOOPBACK_ORIGINS)
    .filter((entry) => entry !== '*')
    .map(parseOriginPattern);
  // Without an explicit origin list, the names the operator configured as the server's own also serve
  // browsers (a rebound page carries the attacker's name, which is on no such list).
  const originHosts = options.allowedOrigins === undefined ? explicitHosts : undefined;

  const originAllowed = (origin: ParsedOrigin): boolean => {
    for (const p of origins) {
      if (p.scheme === origin.scheme && p.hostname === origin.hostname) {
        if (p.port === undefined || p.port === origin.port) return true;
      }
    }
    if (originHosts === undefined) return false;
    // URL keeps the brackets of an IPv6 hostname, as a Host value has them.
    const host = parseHost(`${origin.hostname}:${origin.port}`);
    return host !== undefined && matches(originHosts, host);
  };

  return (request, localAddress) => {
    if (explicitHosts !== undefined || localAddress === undefined || isLoopbackAddress(localAddress)) {
      const hostHeader = request.headers.get('host') ?? hostOfUrl(request.url);
      const host = parseHost(hostHeader);
      if (host === undefined || !matches(hosts, host)) return `Invalid Host header: ${hostHeader}`;
    }
    const origin = request.headers.get('origin');
    if (origin === null || anyOrigin) return undefined;
    const parsed = parseOrigin(origin);
    return parsed !== undefined && originAllowed(parsed)
      ? undefined
      : `Invalid Origin header: ${origin} (not in allowedOrigins)`;
  };
}
