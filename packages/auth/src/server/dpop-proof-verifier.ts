import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  jwtVerify,
} from 'jose';
import { AuthError } from '../auth-error.js';

const ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

/** Options of `DpopProofVerifier`. */
export interface DpopProofVerifierOptions {
  /** How far a proof's `iat` may be from now, in seconds. Default 60. */
  maxAgeSec?: number | undefined;
  /** Proof ids (`jti`) remembered to refuse replays. Default 10 000 (oldest forgotten first). */
  maxRememberedProofs?: number | undefined;
}

/**
 * Checks DPoP proofs at a resource server (RFC 9449 §4.3, §7.1): a `dpop+jwt` signed by the key in its
 * header, for this method and URL (`htm`, `htu`), this token (`ath`), recent (`iat`), never seen
 * before (`jti`), and by the key the token is bound to (`cnf.jkt`).
 */
export class DpopProofVerifier {
  readonly #maxAge: number;
  readonly #max: number;
  /** jti → expiry (ms); insertion order is age order, so the first keys are the oldest. */
  #seen = new Map<string, number>();

  constructor(options: DpopProofVerifierOptions = {}) {
    this.#maxAge = options.maxAgeSec ?? 60;
    this.#max = options.maxRememberedProofs ?? 10_000;
  }

  async verify(input: { proof: string; request: Request; accessToken: string; jkt: string }): Promise<void> {
    const fail = (why: string) => new AuthError('invalid_token', `the DPoP proof ${why}`);
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(input.proof);
    } catch {
      throw fail('is not a JWS');
    }
    const jwk = header.jwk as JWK | undefined;
    if (
      header.typ !== 'dpop+jwt' ||
      typeof header.alg !== 'string' ||
      !ALGS.includes(header.alg) ||
      jwk === undefined ||
      'd' in jwk
    )
      throw fail('header is not a dpop+jwt with an asymmetric alg and a public jwk');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(input.proof, await importJWK(jwk, header.alg), {
        algorithms: ALGS,
        typ: 'dpop+jwt',
      }));
    } catch {
      throw fail('signature does not verify');
    }
    if (payload['htm'] !== input.request.method) throw fail('is for another method');
    const url = new URL(input.request.url);
    const htu = typeof payload['htu'] === 'string' ? safeUrl(payload['htu']) : undefined;
    if (htu === undefined || `${htu.origin}${htu.pathname}` !== `${url.origin}${url.pathname}`)
      throw fail('is for another URL');
    const iat = payload['iat'];
    if (typeof iat !== 'number' || Math.abs(Date.now() / 1000 - iat) > this.#maxAge)
      throw fail('is too old or from the future');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(input.accessToken));
    if (payload['ath'] !== base64url.encode(new Uint8Array(digest)))
      throw fail('is for another access token');
    if ((await calculateJwkThumbprint(jwk, 'sha256')) !== input.jkt)
      throw fail('key is not the key the token is bound to');
    const jti = payload['jti'];
    if (typeof jti !== 'string' || jti.length > 256) throw fail('has no jti');
    const now = Date.now();
    const key = `${input.jkt}:${jti}`;
    if ((this.#seen.get(key) ?? 0) > now) throw fail('was already used');
    this.#seen.set(key, now + this.#maxAge * 2000);
    for (const [old, expiry] of this.#seen) {
      if (this.#seen.size <= this.#max && expiry > now) break;
      this.#seen.delete(old);
    }
  }
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
