import { base64url, type CryptoKey, exportJWK, type JWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';

/**
 * DPoP (RFC 9449) for one provider: an ES256 key pair, oauth4webapi's handle for token requests, and
 * the proofs for resource requests (§4.2, §7.1: `htm`, `htu` without query or fragment, `ath`), with
 * the server nonces each origin sent last (§8, §9).
 */
/** An ES256 key pair (Web Crypto), typed without the DOM library. */
type KeyPair = { privateKey: CryptoKey; publicKey: CryptoKey };

export class DpopProofs {
  readonly #keys: KeyPair;
  readonly #handle: oauth.DPoPHandle;
  #jwk: Promise<JWK> | undefined;
  #nonces = new Map<string, string>();

  constructor(keys: KeyPair, clientId: string) {
    this.#keys = keys;
    this.#handle = oauth.DPoP({ client_id: clientId } as oauth.Client, keys);
  }

  static async generate(clientId: string): Promise<DpopProofs> {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    return new DpopProofs(keys, clientId);
  }

  /** For oauth4webapi token requests (it handles the AS nonce itself). */
  get handle(): oauth.DPoPHandle {
    return this.#handle;
  }

  /** Remembers a `DPoP-Nonce` a resource server sent; true when the response carried one. */
  noteNonce(url: URL, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null || nonce.length > 1024) return false;
    this.#nonces.set(url.origin, nonce);
    return true;
  }

  /** The `DPoP` header value for one request to a resource server. */
  async proof(method: string, url: URL, accessToken: string): Promise<string> {
    this.#jwk ??= exportJWK(this.#keys.publicKey).then(({ kty, crv, x, y }) => ({ kty, crv, x, y }) as JWK);
    const ath = base64url.encode(
      new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))),
    );
    const claims: Record<string, unknown> = {
      htm: method.toUpperCase(),
      htu: `${url.origin}${url.pathname}`,
      ath,
      jti: crypto.randomUUID(),
    };
    const nonce = this.#nonces.get(url.origin);
    if (nonce !== undefined) claims['nonce'] = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await this.#jwk })
      .setIssuedAt()
      .sign(this.#keys.privateKey);
  }
}

/** Runs a token request; on `use_dpop_nonce` (the handle now holds the AS nonce) runs it once more. */
export async function withDpopNonceRetry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return run();
  }
}
