/**
 * Decides whether a WebSocket upgrade may proceed given its `Origin` header (DNS-rebinding protection).
 *
 * - No `Origin` header: allowed. Browsers always send one on WebSocket upgrades, and the checks only
 *   protect browsers; other clients can send any Origin they like anyway.
 * - `allowedOrigins` given: the Origin must equal one of them (scheme, host and port, case-insensitive),
 *   or the list must contain `'*'`.
 * - Otherwise, on a connection that arrived on a loopback address (127.0.0.0/8, ::1): the Origin's host
 *   must be loopback too (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`). A page served from
 *   `http://evil.example` whose name was rebound to 127.0.0.1 is refused; `null` Origins (sandboxed
 *   frames, `file:`) are refused. Any loopback port is accepted, so local dev UIs on another port work.
 * - Otherwise (reached over a non-loopback interface, no list): allowed; such a server is reachable
 *   anyway, so authenticate requests instead.
 *
 * @example
 * ```ts
 * isOriginAllowed('http://localhost:5173', '127.0.0.1', undefined); // true: loopback page, loopback socket
 * isOriginAllowed('http://evil.example', '127.0.0.1', undefined); // false: DNS rebinding
 * isOriginAllowed('https://app.example.com', '10.0.0.5', ['https://app.example.com']); // true
 * ```
 */
export function isOriginAllowed(
  origin: string | undefined,
  localAddress: string | undefined,
  allowedOrigins: readonly string[] | undefined,
): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins !== undefined) {
    const normalized = normalizeOrigin(origin);
    return allowedOrigins.some((allowed) => allowed === '*' || normalizeOrigin(allowed) === normalized);
  }
  if (localAddress === undefined || !isLoopbackAddress(localAddress)) return true;
  return isLoopbackOrigin(origin);
}

export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin.toLowerCase();
  } catch {
    return origin.toLowerCase();
  }
}
