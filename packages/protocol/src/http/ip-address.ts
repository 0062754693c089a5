/**
 * IP address parsing for the trusted-proxy rule: textual IPv4 and IPv6 to bytes, CIDR ranges, and one
 * canonical text per address (so `::1`, `0:0::1` and `::ffff:127.0.0.1`'s IPv4 are each one key).
 */

/** An address as bytes: 4 for IPv4, 16 for IPv6. An IPv4-mapped IPv6 address is its IPv4. */
export type IpBytes = Uint8Array;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4(text: string): IpBytes | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = match[i + 1] as string;
    // No leading zeros: `010` means 8 to some parsers and 10 to others.
    if (part.length > 1 && part.startsWith('0')) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseIpv6(text: string): IpBytes | undefined {
  // A zone (`fe80::1%eth0`) names an interface, not a different host.
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const words: number[][] = [];
  for (const half of halves) {
    const out: number[] = [];
    if (half !== '') {
      const parts = half.split(':');
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as string;
        if (i === parts.length - 1 && part.includes('.')) {
          const v4 = parseIpv4(part);
          if (v4 === undefined) return undefined;
          out.push(
            ((v4[0] as number) << 8) | (v4[1] as number),
            ((v4[2] as number) << 8) | (v4[3] as number),
          );
        } else if (HEXTET.test(part)) {
          out.push(Number.parseInt(part, 16));
        } else {
          return undefined;
        }
      }
    }
    words.push(out);
  }
  const head = words[0] as number[];
  const tail = words[1];
  const count = head.length + (tail?.length ?? 0);
  if (tail === undefined ? count !== 8 : count > 7) return undefined;
  const all = tail === undefined ? head : [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    bytes[2 * i] = (all[i] as number) >> 8;
    bytes[2 * i + 1] = (all[i] as number) & 0xff;
  }
  // ::ffff:a.b.c.d is how a dual-stack socket reports an IPv4 peer: the same host as a.b.c.d.
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return bytes.slice(12);
  }
  return bytes;
}

/** The bytes of a textual IPv4 or IPv6 address (IPv6 optionally in brackets), or undefined. */
export function parseIp(text: string): IpBytes | undefined {
  const trimmed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return trimmed.includes(':') ? parseIpv6(trimmed) : parseIpv4(trimmed);
}

/** One text per address: dotted IPv4, or eight lower-case hex groups for IPv6. */
export function formatIp(bytes: IpBytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push((((bytes[i] as number) << 8) | (bytes[i + 1] as number)).toString(16));
  return groups.join(':');
}

/** A range of addresses: a network and the leading bits that must match it. */
export interface IpRange {
  network: IpBytes;
  prefix: number;
}

/** `10.0.0.0/8`, `fd00::/8`, or a lone address (all its bits); undefined when malformed. */
export function parseIpRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const network = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (network === undefined) return undefined;
  const bits = network.length * 8;
  if (slash === -1) return { network, prefix: bits };
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  let prefix = Number(prefixText);
  // `::ffff:10.0.0.0/104` is parsed as IPv4 10.0.0.0: its prefix counts the 96 mapped bits too.
  if (network.length === 4 && text.slice(0, slash).includes(':')) prefix -= 96;
  if (prefix < 0 || prefix > bits) return undefined;
  return { network, prefix };
}

/** Whether `address` lies in `range` (never across families). */
export function inIpRange(address: IpBytes, range: IpRange): boolean {
  if (address.length !== range.network.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] as number) & mask) !== ((range.network[i] as number) & mask)) return false;
  }
  return true;
}
