import { createHmac, generateKeyPairSync, type JsonWebKey, type KeyObject, sign } from 'node:crypto';

/** A signing key pair and its public JWK (as an authorization server publishes it). */
export interface SigningKey {
  readonly alg: 'ES256' | 'RS256' | 'EdDSA';
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: JsonWebKey;
}

/**
 * A fresh key pair. Written on `node:crypto` (no JOSE library): the fuzz must be able to build tokens a
 * library would refuse to produce.
 *
 * @example
 * ```ts
 * const key = createSigningKey('ES256', 'k1');
 * const token = signJwt({ alg: 'ES256', kid: 'k1' }, { iss, aud, exp }, key);
 * ```
 */
export function createSigningKey(alg: SigningKey['alg'], kid: string): SigningKey {
  const pair =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : alg === 'RS256'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ed25519');
  return {
    alg,
    kid,
    privateKey: pair.privateKey,
    jwk: { ...pair.publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' },
  };
}

/** base64url of text (a JSON value is stringified first; a string is taken as the raw segment text). */
export function segment(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Buffer.from(text ?? 'null', 'utf8').toString('base64url');
}

/** The JWS signature of `input` by `key` in the JOSE encoding of its algorithm. */
export function signature(input: string, key: SigningKey): string {
  const data = Buffer.from(input, 'ascii');
  if (key.alg === 'ES256')
    return sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  if (key.alg === 'RS256') return sign('sha256', data, key.privateKey).toString('base64url');
  return sign(null, data, key.privateKey).toString('base64url');
}

/** HS256 over `input` with `secret` (the algorithm-confusion attack uses a public key as the secret). */
export function hmacSignature(input: string, secret: string | Buffer): string {
  return createHmac('sha256', secret).update(input).digest('base64url');
}

/** A compact JWS: header and payload as given (objects or raw text), signed by `key`. */
export function signJwt(header: unknown, payload: unknown, key: SigningKey): string {
  const input = `${segment(header)}.${segment(payload)}`;
  return `${input}.${signature(input, key)}`;
}
