import fc from 'fast-check';
import { wrongTypeArbitrary } from './hostile-document.js';
import {
  createSigningKey,
  hmacSignature,
  type SigningKey,
  segment,
  signature,
  signJwt,
} from './jwt-signer.js';

/** The authorization server the tokens claim to come from, and the resource they must name. */
export interface JwtSite {
  readonly issuer: string;
  readonly resource: string;
  /** Keys published in the JWKS (ES256 `k1`, RS256 `r1`). */
  readonly trusted: readonly SigningKey[];
  /** Keys the attacker holds: the same algorithms and kids, not in the JWKS. */
  readonly attacker: readonly SigningKey[];
  /** The largest claim or header padding, in bytes. */
  readonly hugeBytes: number;
}

/** One hostile token and how it was made. Every one must be refused. */
export interface HostileToken {
  readonly token: string;
  readonly scheme: string;
  readonly how: string;
}

export function createJwtSite(options: { issuer: string; resource: string; hugeBytes: number }): JwtSite {
  return {
    ...options,
    trusted: [createSigningKey('ES256', 'k1'), createSigningKey('RS256', 'r1')],
    attacker: [
      createSigningKey('ES256', 'k1'),
      createSigningKey('RS256', 'r1'),
      createSigningKey('EdDSA', 'e1'),
    ],
  };
}

/** The claims of a token the resource accepts (RFC 9068). */
export function validClaims(site: JwtSite): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: site.issuer,
    aud: site.resource,
    sub: 'user-1',
    client_id: 'client-1',
    scope: 'mcp',
    iat: now,
    exp: now + 3600,
    jti: `j-${now}`,
  };
}

export const validHeader = (key: SigningKey): Record<string, unknown> => ({
  alg: key.alg,
  kid: key.kid,
  typ: 'at+jwt',
});

/** A token the resource must accept (the control: proves a refusal is not the only answer there is). */
export function validToken(site: JwtSite, key: SigningKey = site.trusted[0]!): string {
  return signJwt(validHeader(key), validClaims(site), key);
}

const TOKEN68 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const textOf = (chars: string, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength });

/** Claim edits that make a token invalid on their own (a wrong audience, issuer, expiry, type…). */
function invalidClaimArbitrary(
  site: JwtSite,
): fc.Arbitrary<[string, (claims: Record<string, unknown>) => void]> {
  const now = Math.floor(Date.now() / 1000);
  const set = (name: string, value: unknown): [string, (c: Record<string, unknown>) => void] => [
    `${name}=${JSON.stringify(value)?.slice(0, 40)}`,
    (claims) => {
      claims[name] = value;
    },
  ];
  const drop = (name: string): [string, (c: Record<string, unknown>) => void] => [
    `-${name}`,
    (claims) => {
      delete claims[name];
    },
  ];
  const other = 'https://evil.example/mcp';
  const notTheValue = (value: string) => wrongTypeArbitrary.filter((v) => v !== value);
  return fc.oneof(
    notTheValue(site.resource).map((v) => set('aud', v)),
    fc
      .constantFrom(other, `${site.resource}/`, site.resource.toUpperCase(), [other], [], [site.issuer])
      .map((v) => set('aud', v)),
    fc.constant(drop('aud')),
    notTheValue(site.issuer).map((v) => set('iss', v)),
    fc.constantFrom('https://evil.example', `${site.issuer}/`, [site.issuer]).map((v) => set('iss', v)),
    fc.constant(drop('iss')),
    fc.constant(drop('exp')),
    fc
      .constantFrom(now - 3600, 0, -1, String(now + 3600), null, true, { $date: now }, [now + 3600])
      .map((v) => set('exp', v)),
    fc.constantFrom(now + 3600, String(now), null, {}).map((v) => set('nbf', v)),
    fc.constantFrom(String(now), null, {}, [now]).map((v) => set('iat', v)),
    // A DPoP-bound token presented as plain Bearer (RFC 9449 §7.1).
    fc.constant(set('cnf', { jkt: 'bm90LWEtcmVhbC10aHVtYnByaW50' })),
  );
}

/** Claim edits that are harmless on their own (huge or odd values): ride along with an invalid one. */
function noiseClaimArbitrary(
  site: JwtSite,
): fc.Arbitrary<[string, (claims: Record<string, unknown>) => void]> {
  return fc.oneof(
    fc
      .integer({ min: 1, max: site.hugeBytes })
      .map((size): [string, (c: Record<string, unknown>) => void] => [
        `huge(${size})`,
        (claims) => {
          claims['padding'] = 'x'.repeat(size);
        },
      ]),
    fc
      .tuple(fc.constantFrom('scope', 'scp', 'client_id', 'sub', 'azp'), wrongTypeArbitrary)
      .map(([name, value]): [string, (c: Record<string, unknown>) => void] => [
        `${name}=${JSON.stringify(value)?.slice(0, 40)}`,
        (claims) => {
          claims[name] = value;
        },
      ]),
  );
}

/**
 * Tokens that must never be accepted: random text, bad base64, wrong and `none` algorithms, HMAC keyed
 * with a public key, header and claim type confusion, huge claims, signatures by keys not in the JWKS,
 * embedded keys, tampered payloads, wrong segment counts.
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(hostileTokenArbitrary(site), async ({ token, scheme }) => { ... }));
 * ```
 */
export function hostileTokenArbitrary(site: JwtSite): fc.Arbitrary<HostileToken> {
  const trusted = fc.constantFrom(...site.trusted);
  const attacker = fc.constantFrom(...site.attacker);
  const bearer = (how: string) => (token: string) => ({ token, scheme: 'Bearer', how });
  // The trusted key's signature over invalid claims, with huge or odd ones riding along: half the runs.
  const badClaims: fc.Arbitrary<HostileToken> = fc
    .tuple(
      trusted,
      // Mostly one invalid claim alone: the sharpest test that each check is made at all.
      fc.oneof(
        { weight: 3, arbitrary: invalidClaimArbitrary(site).map((edit) => [edit]) },
        { weight: 1, arbitrary: fc.array(invalidClaimArbitrary(site), { minLength: 2, maxLength: 3 }) },
      ),
      fc.array(noiseClaimArbitrary(site), { maxLength: 2 }),
      fc.constantFrom('at+jwt', 'JWT', 'application/at+jwt', undefined),
    )
    .map(([key, invalid, noise, typ]) => {
      const claims = validClaims(site);
      for (const [, edit] of [...invalid, ...noise]) edit(claims);
      const header = { ...validHeader(key), typ };
      return {
        token: signJwt(header, claims, key),
        scheme: 'Bearer',
        how: `claims ${[...invalid, ...noise].map(([how]) => how).join(' ')}`,
      };
    });
  const kinds: fc.Arbitrary<HostileToken>[] = [
    textOf(TOKEN68, 400).map(bearer('random token68')),
    textOf(PRINTABLE, 200).map(bearer('random printable')),
    fc
      .array(textOf(TOKEN68.replace(/[.]/g, ''), 60), { minLength: 2, maxLength: 6 })
      .map((parts) => parts.join('.'))
      .map(bearer('random segments')),
    // Bad base64 and non-JSON segments around a real signature.
    fc
      .tuple(trusted, fc.constantFrom('e30', 'eyJ', '!!!', 'e30=', 'AAAA', '', 'bnVsbA', 'W10'))
      .map(([key, bad]) => {
        const good = signJwt(validHeader(key), validClaims(site), key).split('.');
        return { token: `${bad}.${good[1]}.${good[2]}`, scheme: 'Bearer', how: `header segment ${bad}` };
      }),
    fc.tuple(trusted, fc.constantFrom('e30', '!!!', '', 'bnVsbA', 'W10', 'eyJhIjox')).map(([key, bad]) => {
      const input = `${segment(validHeader(key))}.${bad}`;
      return { token: `${input}.${signature(input, key)}`, scheme: 'Bearer', how: `payload segment ${bad}` };
    }),
    // alg none, and algorithms the verifier does not allow (HS256 keyed with the public key: RFC 8725 §2.1).
    fc.tuple(fc.constantFrom('none', 'None', 'NONE', ''), fc.constantFrom('', 'sig')).map(([alg, sig]) => ({
      token: `${segment({ alg, typ: 'at+jwt' })}.${segment(validClaims(site))}.${sig}`,
      scheme: 'Bearer',
      how: `alg ${JSON.stringify(alg)}`,
    })),
    fc.tuple(trusted, fc.constantFrom('jwk', 'pem')).map(([key, form]) => {
      const input = `${segment({ alg: 'HS256', kid: key.kid, typ: 'at+jwt' })}.${segment(validClaims(site))}`;
      const secret = form === 'jwk' ? JSON.stringify(key.jwk) : String(key.jwk.n ?? key.jwk.x);
      return {
        token: `${input}.${hmacSignature(input, secret)}`,
        scheme: 'Bearer',
        how: `HS256 keyed by ${form}`,
      };
    }),
    // A header naming another algorithm than the key signed with.
    fc
      .tuple(trusted, fc.constantFrom('RS256', 'ES256', 'PS256', 'ES384', 'EdDSA', 'es256'))
      .filter(([key, alg]) => alg !== key.alg)
      .map(([key, alg]) => ({
        token: signJwt({ alg, kid: key.kid, typ: 'at+jwt' }, validClaims(site), key),
        scheme: 'Bearer',
        how: `header alg ${alg} signed ${key.alg}`,
      })),
    // Header type confusion with the trusted key's signature (a non-string `kid` only stops narrowing
    // the key choice, and `b64` without `crit` is ignored (RFC 7797 §6): neither makes a token invalid).
    fc
      .tuple(
        trusted,
        fc.oneof(
          fc.tuple(fc.constantFrom('alg', 'kid', 'crit', 'b64'), wrongTypeArbitrary).map(([name, value]) => ({
            name,
            value,
          })),
          fc.constantFrom(
            { name: 'crit', value: ['exp'] },
            { name: 'crit', value: ['b64'], extra: { b64: false } },
            { name: 'crit', value: [] },
          ),
        ),
      )
      .filter(([, edit]) => edit.name !== 'kid' && edit.name !== 'b64')
      .map(([key, edit]) => ({
        token: signJwt(
          { ...validHeader(key), ...('extra' in edit ? edit.extra : {}), [edit.name]: edit.value },
          validClaims(site),
          key,
        ),
        scheme: 'Bearer',
        how: `header ${edit.name}=${JSON.stringify(edit.value)?.slice(0, 40)}`,
      })),
    fc
      .tuple(trusted, fc.constantFrom('[]', '"x"', 'null', '1', '[{"alg":"ES256"}]'))
      .map(([key, header]) => ({
        token: signJwt(header, validClaims(site), key),
        scheme: 'Bearer',
        how: `header ${header}`,
      })),
    // Signed by the attacker: under a trusted kid, another kid, no kid, with the key embedded or linked.
    fc
      .tuple(attacker, fc.constantFrom('same-kid', 'other-kid', 'no-kid', 'jwk', 'jku', 'x5u'))
      .map(([key, how]) => {
        const header: Record<string, unknown> = { ...validHeader(key) };
        if (how === 'other-kid') header['kid'] = 'attacker';
        if (how === 'no-kid') delete header['kid'];
        if (how === 'jwk') header['jwk'] = key.jwk;
        if (how === 'jku') header['jku'] = `${site.issuer}/attacker-jwks`;
        if (how === 'x5u') header['x5u'] = `${site.issuer}/attacker-x5c`;
        return {
          token: signJwt(header, validClaims(site), key),
          scheme: 'Bearer',
          how: `attacker ${key.alg} ${how}`,
        };
      }),
    fc.tuple(trusted, fc.constantFrom('[]', '"claims"', 'null', '42', 'true')).map(([key, payload]) => ({
      token: signJwt(validHeader(key), payload, key),
      scheme: 'Bearer',
      how: `payload ${payload}`,
    })),
    // A valid token with its payload swapped (signature no longer covers it), or its signature cut.
    fc.tuple(trusted, fc.constantFrom('scope', 'sub', 'exp', 'cut', 'empty', 'flip')).map(([key, edit]) => {
      const [header, , sig] = validToken(site, key).split('.') as [string, string, string];
      const claims = validClaims(site);
      if (edit === 'scope') claims['scope'] = 'mcp admin';
      if (edit === 'sub') claims['sub'] = 'admin';
      if (edit === 'exp') claims['exp'] = (claims['exp'] as number) + 1;
      const payload = segment(claims);
      if (edit === 'cut')
        return {
          token: `${header}.${payload}.${sig.slice(0, sig.length >> 1)}`,
          scheme: 'Bearer',
          how: 'cut signature',
        };
      if (edit === 'empty') return { token: `${header}.${payload}.`, scheme: 'Bearer', how: 'no signature' };
      if (edit === 'flip') {
        const flipped = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`;
        return { token: `${header}.${payload}.${flipped}`, scheme: 'Bearer', how: 'flipped signature' };
      }
      return { token: `${header}.${payload}.${sig}`, scheme: 'Bearer', how: `tampered ${edit}` };
    }),
    // A huge header (the token stays under the server's header limit, see the test).
    fc.tuple(trusted, fc.integer({ min: 1, max: site.hugeBytes })).map(([key, size]) => ({
      token: signJwt({ ...validHeader(key), x: 'x'.repeat(size), alg: 'none' }, validClaims(site), key),
      scheme: 'Bearer',
      how: `huge header(${size}) alg none`,
    })),
    // A valid token in the wrong scheme, or a JWE-shaped (five segment) one.
    fc
      .tuple(trusted, fc.constantFrom('DPoP', 'Basic', 'Token', 'Bearer,', 'Bearer  Bearer'))
      .map(([key, scheme]) => ({
        token: validToken(site, key),
        scheme,
        how: `scheme ${scheme}`,
      })),
    trusted.map((key) => ({ token: `${validToken(site, key)}.x.y`, scheme: 'Bearer', how: 'five segments' })),
  ];
  return fc.oneof(
    { weight: kinds.length, arbitrary: badClaims },
    ...kinds.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}
