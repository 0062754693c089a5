import {
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  importJWK,
  type JWK,
  jwtVerify,
} from 'jose';
import { AuthError } from '../auth-error.js';
import { limitOption } from '../limit-option.js';
import { DpopReplayCache, type DpopReplayCacheOptions } from './dpop-replay-cache.js';

/** Default `maxAgeSec`: how far a DPoP proof's `iat` may be from now, in seconds. */
export const DEFAULT_DPOP_MAX_AGE_SEC = 60;

const ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

/**
 * Options of `DpopProofVerifier`. Proof ids (`jti`) are remembered per key until the proof's `iat`
 * window closes; when `maxRememberedProofs` or a key's `maxProofsPerKey` is reached, new proofs get
 * 503 (`replay_cache_full`) rather than any unexpired id being forgotten.
 */
export interface DpopProofVerifierOptions extends DpopReplayCacheOptions {
  /** How far a proof's `iat` may be from now, in seconds. Default `DEFAULT_DPOP_MAX_AGE_SEC` (60). */
  maxAgeSec?: number | undefined;
}

/**
 * Checks DPoP proofs at a resource server (RFC 9449 §4.3, §7.1): a `dpop+jwt` signed by the key in its
 * header, for this method and URL (`htm`, `htu`), this token (`ath`), recent (`iat`), never seen
 * before (`jti`), and by the key the token is bound to (`cnf.jkt`).
 */
export class DpopProofVerifier {
  readonly #maxAge: number;
  readonly #seen: DpopReplayCache;

  constructor(options: DpopProofVerifierOptions = {}) {
    this.#maxAge = limitOption('dpop.maxAgeSec', options.maxAgeSec, DEFAULT_DPOP_MAX_AGE_SEC, { min: 1 });
    this.#seen = new DpopReplayCache(options);
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
    // The iat check above refuses this proof from (iat + maxAge) on, so it need not be remembered
    // longer; a second of margin for a fractional iat.
    const expiresAt = (iat + this.#maxAge + 1) * 1000;
    if (!this.#seen.remember({ jkt: input.jkt, jti, expiresAt })) throw fail('was already used');
  }
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
