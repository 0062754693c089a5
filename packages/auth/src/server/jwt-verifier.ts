import type { AuthInfo } from '@x/protocol';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { AuthError } from '../auth-error.js';
import { limitOption } from '../limit-option.js';
import { ResponseTooLarge, readCappedText } from '../read-capped-text.js';
import {
  audiencesOf,
  clientIdOf,
  DEFAULT_CLOCK_TOLERANCE_SEC,
  scopesOf,
  type TokenVerifier,
} from './token-verifier.js';

/** Default `jwksCooldownMs`: the least time between two key set fetches for an unknown `kid`. */
export const DEFAULT_JWKS_COOLDOWN_MS = 30_000;
/** Default `jwksTimeoutMs`: a key set fetch abandoned after this long answers 503. */
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;
/** Default `jwksMaxBytes`: the largest key set read (256 KiB; real ones are a few KiB). */
export const DEFAULT_JWKS_MAX_BYTES = 256 * 1024;
/** Default `accessTokenTypes`: the `typ` values RFC 9068 §4 lets a resource server accept. */
export const DEFAULT_ACCESS_TOKEN_TYPES: readonly string[] = ['at+jwt', 'application/at+jwt'];

/** Options of `jwtVerifier`. */
export interface JwtVerifierOptions {
  /** The AS's key set: its `jwks_uri` (fetched, cached, refetched for an unknown `kid`) or the keys. */
  jwks: string | URL | JSONWebKeySet;
  /** Accepted `iss` values. */
  issuers: readonly string[];
  /** This resource (the required `aud`, RFC 8707 §2). */
  resource: string | URL;
  /** Allowed skew for `exp`/`nbf`/`iat`, in seconds. Default `DEFAULT_CLOCK_TOLERANCE_SEC` (5). */
  clockToleranceSec?: number | undefined;
  /**
   * After a key set fetch, how long before a token with an unknown `kid` may fetch it again (a
   * rotated key). Default `DEFAULT_JWKS_COOLDOWN_MS` (30 000).
   */
  jwksCooldownMs?: number | undefined;
  /** Abandon a key set fetch after this long (then 503). Default `DEFAULT_JWKS_TIMEOUT_MS` (5 000). */
  jwksTimeoutMs?: number | undefined;
  /** Refuse (503) a key set larger than this, reading no further. Default `DEFAULT_JWKS_MAX_BYTES`. */
  jwksMaxBytes?: number | undefined;
  /** Accepted signature algorithms. Default: the asymmetric ones jose supports. */
  algorithms?: readonly string[] | undefined;
  /**
   * Accepted JWT `typ` header values (case-insensitive; `application/` optional). RFC 9068 §4 has
   * resource servers refuse any other, so an ID token or another JWT signed by the same key cannot
   * pass for an access token. `false` accepts any `typ`, or none (for an AS that does not follow
   * RFC 9068). Default `DEFAULT_ACCESS_TOKEN_TYPES` (`at+jwt`).
   */
  accessTokenTypes?: readonly string[] | false | undefined;
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
      ? remoteKeys(new URL(options.jwks), options)
      : createLocalJWKSet(options.jwks);
  const verifyOptions = {
    issuer: [...options.issuers],
    audience: audiencesOf(options.resource),
    clockTolerance: limitOption('clockToleranceSec', options.clockToleranceSec, DEFAULT_CLOCK_TOLERANCE_SEC, {
      min: 0,
    }),
    algorithms: [...(options.algorithms ?? ASYMMETRIC)],
    requiredClaims: ['exp'],
  };
  const accepted =
    options.accessTokenTypes === false ? undefined : (options.accessTokenTypes ?? DEFAULT_ACCESS_TOKEN_TYPES);
  const types = accepted === undefined ? undefined : new Set(accepted.map(normalizeTyp));
  return async (token) => {
    let payload: Record<string, unknown>;
    let typ: unknown;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      throw toAuthError(error);
    }
    if (types !== undefined && (typeof typ !== 'string' || !types.has(normalizeTyp(typ))))
      throw new AuthError(
        'invalid_token',
        `the access token's "typ" header is not one of accessTokenTypes (${accepted?.join(', ')})`,
      );
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

/** A key set fetch that failed: the AS's trouble, not the token's. */
class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';
}

/**
 * The remote key set, with its fetch failures told apart from bad tokens: jose reports a 500, a
 * redirect, non-JSON or a non-key-set as a plain `JOSEError`, which would otherwise read as
 * `invalid_token` and log every user out during an AS outage. Only "no (single) key for this token"
 * is the token's fault; jose checks the token's `alg` before it asks for a key.
 */
function remoteKeys(url: URL, options: JwtVerifierOptions): JWTVerifyGetKey {
  const maxBytes = limitOption('jwksMaxBytes', options.jwksMaxBytes, DEFAULT_JWKS_MAX_BYTES, {
    min: 1,
    integer: true,
  });
  const remote = createRemoteJWKSet(url, {
    cooldownDuration: limitOption('jwksCooldownMs', options.jwksCooldownMs, DEFAULT_JWKS_COOLDOWN_MS, {
      min: 0,
    }),
    timeoutDuration: limitOption('jwksTimeoutMs', options.jwksTimeoutMs, DEFAULT_JWKS_TIMEOUT_MS, { min: 1 }),
    // jose reads the body whole; read it here under the cap and hand jose a buffered copy.
    [customFetch]: async (href, init) => {
      const response = await fetch(href, init);
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return new Response(null, { status: response.status });
      }
      const text = await readCappedText(response, { maxBytes, option: 'jwksMaxBytes' });
      return new Response(text, { status: 200 });
    },
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error;
      throw new KeySetUnavailable('the key set fetch failed', { cause: error });
    }
  };
}

/** RFC 9068 §4 / RFC 8725 §3.11: media types compare case-insensitively, `application/` optional. */
function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

function toAuthError(error: unknown): AuthError {
  if (
    error instanceof KeySetUnavailable ||
    error instanceof errors.JWKSTimeout ||
    !(error instanceof errors.JOSEError)
  ) {
    // The jose error says why (status, JSON, timeout); the wrapper only says where.
    const cause = error instanceof KeySetUnavailable ? error.cause : error;
    const why = cause instanceof ResponseTooLarge ? ` (it ${cause.message})` : '';
    return new AuthError('verifier_unavailable', `the authorization server key set could not be read${why}`, {
      cause,
    });
  }
  if (error instanceof errors.JWTExpired)
    return new AuthError('invalid_token', 'the access token has expired');
  if (error instanceof errors.JWTClaimValidationFailed)
    return new AuthError('invalid_token', `the access token's "${error.claim}" claim is not accepted here`);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed)
    return new AuthError('invalid_token', 'the access token signature does not verify');
  return new AuthError('invalid_token', `the access token is not a valid JWT (${error.code})`);
}
