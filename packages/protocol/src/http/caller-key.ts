import type { AuthInfo } from '../transport.js';
import { formatIp, parseIp } from './ip-address.js';
import type { ForwardedHeaders } from './trusted-proxies.js';

/**
 * What a network server knows of a caller when it picks the caller's rate-limit bucket: the argument
 * of the `callerKey` option of the Streamable HTTP, SSE and WebSocket servers.
 *
 * @example
 * ```ts
 * // One bucket per API key, else the default rule.
 * const callerKey = (caller: CallerInfo) =>
 *   caller.headers.get('x-api-key') !== null ? `key:${caller.headers.get('x-api-key')}` : defaultCallerKey(caller);
 * ```
 */
export interface CallerInfo {
  /** What `authenticate` returned; undefined for an anonymous caller. */
  authInfo: AuthInfo | undefined;
  /** The caller's principal (`principalOf(authInfo)`, or the server's own principal rule). */
  principal: string | undefined;
  /** The socket's peer: the last proxy when there are proxies. */
  peerAddress: string | undefined;
  /** The client's address: the peer's, or the one the `trustedProxies` forwarded (`TrustedProxies`). */
  clientAddress: string | undefined;
  /** The request's (or WebSocket upgrade's) headers. */
  headers: ForwardedHeaders;
}

/**
 * The `callerKey` option: the rate-limit bucket of a caller. Callers with equal keys share one bucket.
 *
 * @example
 * ```ts
 * const perTenant: CallerKey = (caller) => `tenant:${String(caller.authInfo?.extra?.['tenant'] ?? caller.clientAddress)}`;
 * ```
 */
export type CallerKey = (caller: CallerInfo) => string;

/**
 * The default `callerKey` of every x-mcp network server: the principal when the caller authenticated,
 * else its client address (resolved through `trustedProxies`), else `'unknown'`. The two kinds are
 * prefixed (`p:`, `a:`) so no principal can name an address's bucket. An IPv6 client is keyed by its
 * /64: one host is usually given a whole /64, and keying by the full address would hand it 2^64 buckets.
 *
 * @example
 * ```ts
 * defaultCallerKey({ principal: undefined, clientAddress: '203.0.113.7' }); // 'a:203.0.113.7'
 * defaultCallerKey({ principal: undefined, clientAddress: '2001:db8::1' }); // 'a:2001:db8:0:0::/64'
 * ```
 */
export function defaultCallerKey(caller: Pick<CallerInfo, 'principal' | 'clientAddress'>): string {
  if (caller.principal !== undefined) return `p:${caller.principal}`;
  const address = caller.clientAddress;
  return `a:${address === undefined ? 'unknown' : addressKey(address)}`;
}

/** IPv4 as is, IPv6 as its /64, anything else (a runtime's own notion of a peer) verbatim. */
function addressKey(address: string): string {
  const bytes = parseIp(address);
  if (bytes === undefined) return address;
  if (bytes.length === 4) return formatIp(bytes);
  const network = new Uint8Array(16);
  network.set(bytes.subarray(0, 8));
  return `${formatIp(network).split(':').slice(0, 4).join(':')}::/64`;
}
