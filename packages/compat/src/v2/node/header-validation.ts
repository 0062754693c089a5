import type { IncomingMessage, ServerResponse } from 'node:http';

/** A `(req, res) => boolean` guard: `false` after it answered 403 itself. */
export type NodeRequestGuard = (req: IncomingMessage, res: ServerResponse) => boolean;

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

function refuse(res: ServerResponse, message: string): false {
  res.writeHead(403, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  return false;
}

/** The hostname of a `Host` header value (`[::1]:3000` → `[::1]`, `a.b:80` → `a.b`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? host;
}

/**
 * The 2.x `hostHeaderValidation`: refuses (403) a request whose `Host` hostname is not listed.
 *
 * @example
 * ```ts
 * const validHost = hostHeaderValidation(['localhost', '127.0.0.1']);
 * createServer((req, res) => validHost(req, res) && handler(req, res));
 * ```
 */
export function hostHeaderValidation(allowedHostnames: string[]): NodeRequestGuard {
  const allowed = new Set(allowedHostnames);
  return (req, res) => {
    const host = req.headers.host;
    if (host === undefined) return refuse(res, 'Missing Host header');
    return allowed.has(hostnameOf(host)) || refuse(res, `Invalid Host: ${host}`);
  };
}

/** `hostHeaderValidation` for loopback hostnames. */
export function localhostHostValidation(): NodeRequestGuard {
  return hostHeaderValidation(LOOPBACK);
}

/**
 * The 2.x `originValidation`: refuses (403) a request whose `Origin` hostname is not listed; a request
 * without `Origin` (not from a browser) passes.
 *
 * @example
 * ```ts
 * const validOrigin = originValidation(['localhost']);
 * ```
 */
export function originValidation(allowedOriginHostnames: string[]): NodeRequestGuard {
  const allowed = new Set(allowedOriginHostnames);
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    let hostname: string;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      return refuse(res, `Invalid Origin: ${origin}`);
    }
    return allowed.has(hostname) || refuse(res, `Invalid Origin: ${origin}`);
  };
}

/** `originValidation` for loopback origins. */
export function localhostOriginValidation(): NodeRequestGuard {
  return originValidation(LOOPBACK);
}
