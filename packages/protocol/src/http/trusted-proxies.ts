import { formatIp, type IpBytes, type IpRange, inIpRange, parseIp, parseIpRange } from './ip-address.js';

/**
 * The proxies in front of a server, in the long form of the `trustedProxies` option.
 *
 * @example
 * ```ts
 * const trustedProxies: TrustedProxiesOptions = { addresses: ['10.0.0.0/8'], header: 'forwarded' };
 * ```
 */
export interface TrustedProxiesOptions {
  /** Proxy addresses: exact IPv4/IPv6 addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`). */
  addresses: readonly string[];
  /**
   * The header your proxies append the client's address to: `'x-forwarded-for'` (most load balancers)
   * or `'forwarded'` (RFC 7239 `for=`). Only that one is read: a proxy that appends to one passes the
   * other through as the client wrote it. Default `'x-forwarded-for'`.
   */
  header?: 'x-forwarded-for' | 'forwarded' | undefined;
}

/**
 * The `trustedProxies` option every x-mcp network server takes (Streamable HTTP, SSE, WebSocket): a list
 * of proxy addresses, or {@link TrustedProxiesOptions}.
 *
 * @example
 * ```ts
 * const trustedProxies: TrustedProxiesOption = ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'];
 * ```
 */
export type TrustedProxiesOption = readonly string[] | TrustedProxiesOptions;

/** The header reads the rule makes; `Headers`, `HeaderReader` and the WebSocket upgrade's view have it. */
export interface ForwardedHeaders {
  get(name: string): string | null;
}

/**
 * Who a request comes from when proxies stand in front of the server. Only when the socket's peer is a
 * listed proxy is the forwarding header read, right to left: each listed hop is skipped, and the first
 * address that is not a listed proxy is the client. Anything else a client sends in these headers is
 * ignored, so an unlisted caller cannot pick its own rate-limit bucket with a forged header. A header
 * that cannot be read up to the client (an entry that is not an IP address, `unknown`, an obfuscated
 * node) yields the peer's address, as if no header had been sent.
 *
 * @example
 * ```ts
 * const proxies = new TrustedProxies(['10.0.0.0/8']);
 * proxies.clientAddress('10.1.2.3', new Headers({ 'x-forwarded-for': '203.0.113.7, 10.9.9.9' })); // '203.0.113.7'
 * proxies.clientAddress('198.51.100.1', new Headers({ 'x-forwarded-for': '203.0.113.7' })); // '198.51.100.1'
 * ```
 */
export class TrustedProxies {
  readonly #ranges: readonly IpRange[];
  readonly #header: 'x-forwarded-for' | 'forwarded';

  /** Throws a `TypeError` naming `trustedProxies` for an entry that is not an address or a CIDR range. */
  constructor(option: TrustedProxiesOption) {
    const { addresses, header = 'x-forwarded-for' } = isAddressList(option) ? { addresses: option } : option;
    if (header !== 'x-forwarded-for' && header !== 'forwarded') {
      throw new TypeError(
        `trustedProxies.header must be 'x-forwarded-for' or 'forwarded', got ${String(header)}`,
      );
    }
    this.#ranges = addresses.map((entry) => {
      const range = typeof entry === 'string' ? parseIpRange(entry.trim()) : undefined;
      if (range === undefined) {
        throw new TypeError(`trustedProxies: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
      }
      return range;
    });
    this.#header = header;
  }

  /** Whether `address` (textual IPv4 or IPv6) is a listed proxy. */
  isTrusted(address: string): boolean {
    const bytes = parseIp(address);
    return bytes !== undefined && this.#trusted(bytes);
  }

  /**
   * The client's address (canonical text: dotted IPv4, eight hex groups for IPv6) behind the listed
   * proxies; the peer's own when it is not one of them. Undefined only when the peer is unknown.
   */
  clientAddress(peer: string | undefined, headers: ForwardedHeaders): string | undefined {
    if (peer === undefined) return undefined;
    const peerBytes = parseIp(peer);
    if (peerBytes === undefined) return peer;
    const direct = formatIp(peerBytes);
    if (!this.#trusted(peerBytes)) return direct;
    const value = headers.get(this.#header);
    if (value === null) return direct;
    const hops = this.#header === 'forwarded' ? forwardedFor(value) : value.split(',');
    let client: IpBytes = peerBytes;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i];
      const bytes = hop === undefined ? undefined : parseNode(hop.trim());
      // Unreadable before the client was found: the chain cannot be followed, so it is not trusted.
      if (bytes === undefined) return direct;
      client = bytes;
      if (!this.#trusted(bytes)) break;
    }
    return formatIp(client);
  }

  #trusted(bytes: IpBytes): boolean {
    for (const range of this.#ranges) if (inIpRange(bytes, range)) return true;
    return false;
  }
}

function isAddressList(option: TrustedProxiesOption): option is readonly string[] {
  return Array.isArray(option);
}

/**
 * An address as a forwarding header writes it: `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`,
 * `[2001:db8::1]`, `[2001:db8::1]:4711`.
 */
function parseNode(text: string): IpBytes | undefined {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return undefined;
    const rest = text.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return parseIp(text.slice(1, end));
  }
  const colon = text.indexOf(':');
  if (colon !== -1 && colon === text.lastIndexOf(':')) {
    // One colon: an IPv4 address and its port.
    if (!/^\d{1,5}$/.test(text.slice(colon + 1))) return undefined;
    const bytes = parseIp(text.slice(0, colon));
    return bytes?.length === 4 ? bytes : undefined;
  }
  return parseIp(text);
}

/**
 * The `for=` node of each element of an RFC 7239 `Forwarded` value, in order. An element without
 * exactly one `for`, or with a pair that does not parse, yields `''`, which no address matches; empty
 * elements (`a, , b` is valid list syntax) are skipped.
 */
function forwardedFor(value: string): string[] {
  const nodes: string[] = [];
  let node: string | undefined;
  let fors = 0;
  let broken = false;
  let empty = true;
  let i = 0;
  for (;;) {
    while (i < value.length && (value[i] === ' ' || value[i] === '\t')) i++;
    const stop = findStop(value, i);
    const eq = value.indexOf('=', i);
    if (eq === -1 || eq > stop) {
      // No pair here: fine only when nothing is (`;;` or an empty element).
      if (value.slice(i, stop).trim() !== '') broken = true;
      i = stop;
    } else {
      empty = false;
      const name = value.slice(i, eq).trim().toLowerCase();
      i = eq + 1;
      let pairValue = '';
      if (value[i] === '"') {
        i++;
        let closed = false;
        while (i < value.length) {
          const ch = value[i] as string;
          if (ch === '\\' && i + 1 < value.length) {
            pairValue += value[i + 1];
            i += 2;
          } else if (ch === '"') {
            closed = true;
            i++;
            break;
          } else {
            pairValue += ch;
            i++;
          }
        }
        const after = findStop(value, i);
        if (!closed || value.slice(i, after).trim() !== '') broken = true;
        i = after;
      } else {
        const end = findStop(value, i);
        pairValue = value.slice(i, end).trim();
        if (pairValue.includes('"')) broken = true;
        i = end;
      }
      if (name === 'for') {
        node = pairValue;
        fors++;
      }
    }
    if (i >= value.length || value[i] === ',') {
      if (!empty || broken) nodes.push(fors === 1 && !broken && node !== undefined ? node : '');
      node = undefined;
      fors = 0;
      broken = false;
      empty = true;
      if (i >= value.length) return nodes;
    }
    i++;
  }
}

/**
 * The index of the next `;` or `,` from `from`, or the length. Called outside quoted strings only; a
 * quote inside a token makes that pair unreadable, which the caller checks.
 */
function findStop(value: string, from: number): number {
  for (let i = from; i < value.length; i++) {
    const ch = value[i];
    if (ch === ';' || ch === ',') return i;
  }
  return value.length;
}
