/**
 * Host and Origin validation against DNS rebinding (spec 2024-11-05 transports, "Security Warning":
 * servers MUST validate the Origin header; 2025-11-25: an invalid Origin gets 403). Runtime-neutral.
 *
 * A rebinding attack makes a victim's browser talk to a local server under the attacker's host name, so
 * the browser sends `Host: evil.example` and `Origin: http://evil.example`. Checking both against what
 * the server is really called stops it; non-browser clients send no Origin and pass on Host alone.
 */

/** Host names a server bound to the loopback interface is reached by. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface DnsRebindingGuardOptions {
  /**
   * `Host` header values to accept, e.g. `['localhost', 'mcp.example.com:8443']`. An entry without a
   * port accepts any port. Default: {@link LOOPBACK_HOSTS}.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * `Origin` values to accept when a request carries one, e.g. `['https://app.example.com']`.
   * Default: any origin whose host passes `allowedHosts` (a page served by the same host names).
   */
  allowedOrigins?: readonly string[] | undefined;
}

/** Returns undefined when the request may pass, otherwise why it may not (for a 403 body). */
export type DnsRebindingGuard = (request: Request) => string | undefined;

interface HostPattern {
  hostname: string;
  port: string | undefined;
}

// `name`, `name:port`, `[v6]`, `[v6]:port`; anything else (userinfo, paths, spaces) is not a Host value.
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[^:[\]/@\s]+)(?::(\d{1,5}))?$/i;

function parseHost(value: string): HostPattern | undefined {
  const match = HOST_SYNTAX.exec(value.trim());
  if (match === null) return undefined;
  // A trailing dot names the same host (`localhost.`), so it must not slip past an exact comparison.
  const hostname = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
  return { hostname, port: match[2] };
}

function matches(patterns: readonly HostPattern[], host: HostPattern): boolean {
  return patterns.some(
    (p) => p.hostname === host.hostname && (p.port === undefined || p.port === (host.port ?? '')),
  );
}

function originHost(origin: string): HostPattern | undefined {
  try {
    const url = new URL(origin);
    const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
    return parseHost(`${url.hostname}:${port}`);
  } catch {
    return undefined;
  }
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/**
 * Builds the check once so each request only does string work.
 *
 * @example
 * ```ts
 * const guard = createDnsRebindingGuard({ allowedHosts: ['localhost', '127.0.0.1'] });
 * const reason = guard(request);
 * if (reason !== undefined) return new Response(reason, { status: 403 });
 * ```
 */
export function createDnsRebindingGuard(options: DnsRebindingGuardOptions = {}): DnsRebindingGuard {
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
    // Server runtimes keep the Host header in `request.headers`; the URL is the fallback where a runtime
    // builds it from Host and drops the header.
    const hostHeader = request.headers.get('host') ?? new URL(request.url).host;
    const host = parseHost(hostHeader);
    if (host === undefined || !matches(hosts, host)) return `Invalid Host header: ${hostHeader}`;

    const origin = request.headers.get('origin');
    if (origin === null) return undefined;
    if (origins !== undefined) {
      const normalized = normalizeOrigin(origin);
      return normalized !== undefined && origins.has(normalized)
        ? undefined
        : `Invalid Origin header: ${origin}`;
    }
    // `Origin: null` (sandboxed frames, file: pages) parses to no host, so it is refused here.
    const fromOrigin = originHost(origin);
    return fromOrigin !== undefined && matches(hosts, fromOrigin)
      ? undefined
      : `Invalid Origin header: ${origin}`;
  };
}
