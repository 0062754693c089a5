import type { AuthInfo } from '@x/protocol';
import { createLocalJWKSet, createRemoteJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { AuthError } from '../auth-error.js';
import { audiencesOf, clientIdOf, scopesOf, type TokenVerifier } from './token-verifier.js';

/** Options of `jwtVerifier`. */
export interface JwtVerifierOptions {
  /** The AS's key set: its `jwks_uri` (fetched, cached, refetched for an unknown `kid`) or the keys. */
  jwks: string | URL | JSONWebKeySet;
  /** Accepted `iss` values. */
  issuers: readonly string[];
  /** This resource (the required `aud`, RFC 8707 §2). */
  resource: string | URL;
  /** Allowed skew for `exp`/`nbf`/`iat`, in seconds. Default 30. */
  clockToleranceSec?: number | undefined;
  /**
   * After a key set fetch, how long before a token with an unknown `kid` may fetch it again (a
   * rotated key). Default 30 000 ms.
   */
  jwksCooldownMs?: number | undefined;
  /** Abandon a key set fetch after this long (then 503). Default 5 000 ms. */
  jwksTimeoutMs?: number | undefined;
  /** Accepted signature algorithms. Default: the asymmetric ones jose supports. */
  algorithms?: readonly string[] | undefined;
}

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Verifies JWT access tokens (RFC 9068) with the authorization server's keys: signature, `iss`,
 * `aud` = this resource, `exp`/`nbf` with clock tolerance.
 *
 * @example
 * ```ts
 * const verify = jwtVerifier({
 *   jwks: 'https://auth.example.com/jwks',
 *   issuers: ['https://auth.example.com'],
 *   resource: 'https://api.example.com/mcp',
 * });
 * const info = await verify(token, request);
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys =
    typeof options.jwks === 'string' || options.jwks instanceof URL
      ? createRemoteJWKSet(new URL(options.jwks), {
          cooldownDuration: options.jwksCooldownMs ?? 30_000,
          timeoutDuration: options.jwksTimeoutMs ?? 5_000,
        })
      : createLocalJWKSet(options.jwks);
  const verifyOptions = {
    issuer: [...options.issuers],
    audience: audiencesOf(options.resource),
    clockTolerance: options.clockToleranceSec ?? 30,
    algorithms: [...(options.algorithms ?? ASYMMETRIC)],
    requiredClaims: ['exp'],
  };
  return async (token) => {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      throw toAuthError(error);
    }
    const info: AuthInfo = {
      token,
      clientId: clientIdOf(payload),
      scopes: scopesOf(payload),
      resource: new URL(options.resource),
      extra: { sub: payload['sub'], iss: payload['iss'], cnf: payload['cnf'] },
    };
    if (typeof payload['exp'] === 'number') info.expiresAt = payload['exp'];
    return info;
  };
}

function toAuthError(error: unknown): AuthError {
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError))
    return new AuthError('verifier_unavailable', 'the authorization server key set could not be read', {
      cause: error,
    });
  if (error instanceof errors.JWTExpired)
    return new AuthError('invalid_token', 'the access token has expired');
  if (error instanceof errors.JWTClaimValidationFailed)
    return new AuthError('invalid_token', `the access token's "${error.claim}" claim is not accepted here`);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed)
    return new AuthError('invalid_token', 'the access token signature does not verify');
  return new AuthError('invalid_token', `the access token is not a valid JWT (${error.code})`);
}
