import { describe, expect, it } from 'vitest';
import { defaultCallerKey, principalOf, subjectOf, TrustedProxies } from '@x/protocol/http';

const auth = (clientId: string, extra?: Record<string, unknown>) => ({
  token: 't',
  clientId,
  scopes: [],
  extra,
});

describe('principalOf', () => {
  it('is the client plus the user it acts for, read from sub, subject or userId', () => {
    expect(principalOf(auth('app', { sub: 'alice' }))).toBe('["app","alice"]');
    expect(principalOf(auth('app', { userId: 'u-1' }))).toBe('["app","u-1"]');
    expect(principalOf(auth('app', { sub: 7, subject: 's' }))).toBe('["app","s"]');
    expect(principalOf(auth('app'))).toBe('["app"]');
    expect(subjectOf(auth('app', Object.create({ sub: 'inherited' })))).toBeUndefined();
  });

  it('never lets one (clientId, sub) pair spell another', () => {
    // With `auth:${clientId}:sub:${sub}` these four collided pairwise.
    const pairs: [string, string][] = [
      ['a:sub:b', 'c'],
      ['a', 'b:sub:c'],
      ['a"', 'b'],
      ['a', '"b'],
      ['a","b', 'c'],
      ['a', 'b","c'],
    ];
    const keys = pairs.map(([clientId, sub]) => principalOf(auth(clientId, { sub })));
    expect(new Set(keys).size).toBe(pairs.length);
    for (const [i, key] of keys.entries()) expect(JSON.parse(key)).toEqual(pairs[i]);
    // A client without a subject is not a client whose user is named like it.
    expect(principalOf(auth('["a","b"]'))).not.toBe(principalOf(auth('a', { sub: 'b' })));
  });
});

describe('defaultCallerKey', () => {
  it('keys by principal, else by the client address, in separate name spaces', () => {
    expect(defaultCallerKey({ principal: '["app"]', clientAddress: '1.2.3.4' })).toBe('p:["app"]');
    expect(defaultCallerKey({ principal: undefined, clientAddress: '1.2.3.4' })).toBe('a:1.2.3.4');
    expect(defaultCallerKey({ principal: undefined, clientAddress: undefined })).toBe('a:unknown');
    // One IPv6 host usually holds a /64: all of it is one caller, however it is written.
    expect(defaultCallerKey({ principal: undefined, clientAddress: '2001:db8:1:2::1' })).toBe(
      'a:2001:db8:1:2::/64',
    );
    expect(defaultCallerKey({ principal: undefined, clientAddress: '2001:db8:1:2:ffff::9' })).toBe(
      'a:2001:db8:1:2::/64',
    );
    expect(defaultCallerKey({ principal: undefined, clientAddress: '2001:db8:1:3::1' })).toBe(
      'a:2001:db8:1:3::/64',
    );
    expect(defaultCallerKey({ principal: undefined, clientAddress: '::ffff:127.0.0.1' })).toBe('a:127.0.0.1');
  });
});

describe('TrustedProxies', () => {
  const xff = (value: string) => new Headers({ 'x-forwarded-for': value });
  const fwd = (value: string) => new Headers({ forwarded: value });

  it('ignores forwarding headers from a peer that is not listed', () => {
    const proxies = new TrustedProxies(['10.0.0.1']);
    expect(proxies.clientAddress('198.51.100.9', xff('203.0.113.7'))).toBe('198.51.100.9');
    expect(proxies.clientAddress('198.51.100.9', fwd('for=203.0.113.7'))).toBe('198.51.100.9');
  });

  it('reads X-Forwarded-For right to left, skipping listed hops, and stops at the first other address', () => {
    const proxies = new TrustedProxies(['10.0.0.0/8', '127.0.0.1']);
    expect(proxies.clientAddress('10.0.0.1', xff('203.0.113.7'))).toBe('203.0.113.7');
    // The client's own forged entry (left of its real address) is never reached.
    expect(proxies.clientAddress('10.0.0.1', xff('1.1.1.1, 203.0.113.7, 10.2.3.4'))).toBe('203.0.113.7');
    expect(proxies.clientAddress('::ffff:127.0.0.1', xff('203.0.113.7:5555'))).toBe('203.0.113.7');
    expect(proxies.clientAddress('10.0.0.1', xff('[2001:db8::1]:443'))).toBe('2001:db8:0:0:0:0:0:1');
    // Every hop listed: the leftmost is the furthest known.
    expect(proxies.clientAddress('10.0.0.1', xff('10.0.0.9, 10.0.0.8'))).toBe('10.0.0.9');
    // No header: the proxy itself.
    expect(proxies.clientAddress('10.0.0.1', new Headers())).toBe('10.0.0.1');
  });

  it('falls back to the peer when the chain is unreadable before the client', () => {
    const proxies = new TrustedProxies(['10.0.0.0/8']);
    for (const value of ['garbage', '203.0.113.7, nope', '', '999.1.1.1', '01.2.3.4', 'unknown']) {
      expect(proxies.clientAddress('10.0.0.1', xff(value)), value).toBe('10.0.0.1');
    }
    // Garbage left of the client is the client's own and does not matter.
    expect(proxies.clientAddress('10.0.0.1', xff('garbage, 203.0.113.7'))).toBe('203.0.113.7');
  });

  it('reads RFC 7239 Forwarded when told to', () => {
    const proxies = new TrustedProxies({ addresses: ['10.0.0.0/8'], header: 'forwarded' });
    expect(proxies.clientAddress('10.0.0.1', fwd('for=203.0.113.7;proto=https'))).toBe('203.0.113.7');
    expect(
      proxies.clientAddress('10.0.0.1', fwd('for=1.1.1.1, for="[2001:db8:cafe::17]:4711", for=10.3.3.3')),
    ).toBe('2001:db8:cafe:0:0:0:0:17');
    expect(proxies.clientAddress('10.0.0.1', fwd('For="203.0.113.7:80";by=10.0.0.1, ,'))).toBe('203.0.113.7');
    for (const value of [
      'for=unknown',
      'for=_hidden',
      'for="203.0.113.7',
      'proto=http',
      'for=1.2.3.4;for=5.6.7.8',
    ]) {
      expect(proxies.clientAddress('10.0.0.1', fwd(value)), value).toBe('10.0.0.1');
    }
    // The other header is not read: a proxy that writes Forwarded passes X-Forwarded-For through as sent.
    expect(proxies.clientAddress('10.0.0.1', xff('203.0.113.7'))).toBe('10.0.0.1');
  });

  it('matches IPv4 and IPv6 CIDR ranges at any prefix, never across families', () => {
    const proxies = new TrustedProxies(['192.168.4.0/22', 'fd00::/8', '2001:db8::/127']);
    expect(proxies.isTrusted('192.168.7.255')).toBe(true);
    expect(proxies.isTrusted('192.168.8.0')).toBe(false);
    expect(proxies.isTrusted('::ffff:192.168.5.1')).toBe(true);
    expect(proxies.isTrusted('fdff:1::1')).toBe(true);
    expect(proxies.isTrusted('fe00::1')).toBe(false);
    expect(proxies.isTrusted('2001:db8::1')).toBe(true);
    expect(proxies.isTrusted('2001:db8::2')).toBe(false);
    expect(proxies.isTrusted('0.0.0.0')).toBe(false);
    expect(new TrustedProxies(['0.0.0.0/0']).isTrusted('::1')).toBe(false);
  });

  it('refuses a list entry that is not an address or range, naming the option', () => {
    for (const bad of ['10.0.0.0/33', 'localhost', '1.2.3', 'fd00::/129', '::1::2']) {
      expect(() => new TrustedProxies([bad]), bad).toThrow(/trustedProxies/);
    }
  });
});
