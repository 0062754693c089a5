/**
 * Host and Origin validation against DNS rebinding (2025-11-25 and 2026-07-28 transports, "Security
 * Warning": servers MUST validate the Origin header; an invalid one gets 403 Forbidden). A rebinding
 * attack makes the victim's browser reach a local server under the attacker's name, so it sends
 * `Host: evil.example` and `Origin: http://evil.example`; checking both against the names the server
 * really answers to stops it. Non-browser clients send no Origin and pass on Host alone.
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
 * Allow-lists for {@link createDnsRebindingGuard}.
 *
 * @example
 * ```ts
 * const guard = createDnsRebindingGuard({
 *   allowedHosts: ['mcp.example.com', 'localhost:8443'],
 *   allowedOrigins: ['https://app.example.com'],
 * });
 * ```
 */
export interface DnsRebindingOptions {
  /**
   * `Host` values to accept, e.g. `['localhost', 'mcp.example.com:8443']`; an entry without a port
   * accepts any port. Default {@link LOOPBACK_HOSTS}.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * `Origin` values to accept when a request carries one, e.g. `['https://app.example.com']`. Default:
   * any origin whose host passes `allowedHosts`.
   */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * Returns undefined when the request may pass, otherwise the reason for a 403.
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
export type DnsRebindingGuard = (request: Request) => string | undefined;

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

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/**
 * True for a loopback socket address (`127.0.0.0/8`, `::1`, and their IPv4-mapped IPv6 forms): the
 * case where protection is on by default.
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

/**
 * Builds the check once so each request only does string work.
 *
 * @example
 * ```ts
 * const guard = createDnsRebindingGuard({ allowedHosts: ['localhost', '127.0.0.1'] });
 * if (guard(request) !== undefined) return new Response(null, { status: 403 });
 * ```
 */
export function createDnsRebindingGuard(options: DnsRebindingOptions = {}): DnsRebindingGuard {
  const hosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((entry) => {
    const parsed = parseHost(entry);
    if (parsed === undefined) throw new TypeError(`Invalid allowed host: ${entry}`);
    return parsed;
  });
  const origins =
    options.allowedOrigins === undefined
      ? undefined
      : new Set(
          options.allowedOrigins.map((entry) => {
            const normalized = normalizeOrigin(entry);
            if (normalized === undefined) throw new TypeError(`Invalid allowed origin: ${entry}`);
            return normalized;
          }),
        );

  return (request) => {
    const hostHeader = request.headers.get('host') ?? new URL(request.url).host;
    const host = parseHost(hostHeader);
    if (host === undefined || !matches(hosts, host)) return `Invalid Host header: ${hostHeader}`;
    const origin = request.headers.get('origin');
    if (origin === null) return undefined;
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) return `Invalid Origin header: ${origin}`;
    if (origins !== undefined)
      return origins.has(normalized) ? undefined : `Invalid Origin header: ${origin}`;
    const url = new URL(normalized);
    const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
    const fromOrigin = parseHost(`${url.hostname}:${port}`);
    return fromOrigin !== undefined && matches(hosts, fromOrigin)
      ? undefined
      : `Invalid Origin header: ${origin}`;
  };
}
