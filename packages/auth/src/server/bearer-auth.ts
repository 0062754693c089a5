import type { AuthInfo } from '@x/protocol';
import type { HttpAuthenticate } from '@x/protocol/http';
import type { JSONWebKeySet } from 'jose';
import { AuthError } from '../auth-error.js';
import { DpopProofVerifier, type DpopProofVerifierOptions } from './dpop-proof-verifier.js';
import { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection-verifier.js';
import { jwtVerifier } from './jwt-verifier.js';
import { resourceMetadataUrl } from './resource-metadata-url.js';
import type { TokenVerifier } from './token-verifier.js';
import { challengeResponse } from './www-authenticate.js';

/** Options of `bearerAuth`. Exactly one of `jwks`, `introspection`, `verify`. */
export interface BearerAuthOptions {
  /** This MCP server's URL: the audience tokens must name (RFC 8707) and the PRM `resource`. */
  resource: string | URL;
  /** Issuers whose tokens are accepted (and listed in the PRM). */
  authorizationServers: readonly (string | URL)[];
  /** Verify JWT access tokens with this key set (`jwks_uri` or keys). */
  jwks?: string | URL | JSONWebKeySet | undefined;
  /** Verify tokens by RFC 7662 introspection. */
  introspection?: Omit<IntrospectionVerifierOptions, 'resource' | 'clockToleranceSec'> | undefined;
  /** Verify tokens with your own function (throw `AuthError('invalid_token')` to refuse). */
  verify?: TokenVerifier | undefined;
  /** Scopes every request needs; a token without them gets 403 `insufficient_scope`. Default none. */
  requiredScopes?: readonly string[] | undefined;
  /** Allowed clock skew for `exp`/`nbf`, in seconds. Default `DEFAULT_CLOCK_TOLERANCE_SEC` (5). */
  clockToleranceSec?: number | undefined;
  /**
   * With `jwks`: the accepted JWT `typ` headers, or `false` for any. Default
   * `DEFAULT_ACCESS_TOKEN_TYPES` (`at+jwt`, RFC 9068 §4). See `JwtVerifierOptions.accessTokenTypes`.
   */
  accessTokenTypes?: readonly string[] | false | undefined;
  /** With `jwks`: see `JwtVerifierOptions.jwksCooldownMs`. Default `DEFAULT_JWKS_COOLDOWN_MS` (30 000). */
  jwksCooldownMs?: number | undefined;
  /** With `jwks`: see `JwtVerifierOptions.jwksTimeoutMs`. Default `DEFAULT_JWKS_TIMEOUT_MS` (5 000). */
  jwksTimeoutMs?: number | undefined;
  /** With `jwks`: see `JwtVerifierOptions.jwksMaxBytes`. Default `DEFAULT_JWKS_MAX_BYTES` (256 KiB). */
  jwksMaxBytes?: number | undefined;
  /** With `jwks`: the accepted signature algorithms. Default: the asymmetric ones jose supports. */
  algorithms?: readonly string[] | undefined;
  /** Where the PRM is served. Default `resourceMetadataUrl(resource)`. */
  resourceMetadataUrl?: string | URL | undefined;
  /** Requests without any `Authorization` pass as anonymous instead of 401. Default false. */
  allowAnonymous?: boolean | undefined;
  /**
   * DPoP-bound tokens (RFC 9449): accepted with `Authorization: DPoP` and a valid proof; a token bound
   * to a key (`cnf.jkt`) is refused as plain Bearer. `false` refuses the DPoP scheme. Default `{}`.
   */
  dpop?: DpopProofVerifierOptions | false | undefined;
  /** A verifier that failed (JWKS or introspection unreachable); the caller got 503. */
  onerror?: ((error: AuthError) => void) | undefined;
}

const CREDENTIALS = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Protects an MCP server with OAuth 2.1 bearer tokens (MCP "Authorization", RFC 6750, RFC 9728):
 * returns the `authenticate` hook of `createStreamableHttpHandler` / `createSseHandler`. A missing or
 * invalid token gets 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (plus
 * `error="invalid_token"` when a token was sent); a token without `requiredScopes` gets 403
 * `error="insufficient_scope"` naming the scopes needed.
 *
 * @example
 * ```ts
 * const handler = createStreamableHttpHandler({
 *   onsession: (transport) => server.connect(transport),
 *   authenticate: bearerAuth({
 *     resource: 'https://api.example.com/mcp',
 *     authorizationServers: ['https://auth.example.com'],
 *     jwks: 'https://auth.example.com/jwks',
 *     requiredScopes: ['mcp:tools'],
 *   }),
 * });
 * ```
 */
export function bearerAuth(options: BearerAuthOptions): HttpAuthenticate {
  const verify = verifierOf(options);
  const metadataUrl = String(options.resourceMetadataUrl ?? resourceMetadataUrl(options.resource));
  const required = [...(options.requiredScopes ?? [])];
  const scope = required.length > 0 ? required.join(' ') : undefined;
  const dpop = options.dpop === false ? undefined : new DpopProofVerifier(options.dpop);
  return async (request) => {
    const header = request.headers.get('authorization');
    if (header === null) {
      if (options.allowAnonymous === true) return undefined;
      return challengeResponse(401, { resourceMetadata: metadataUrl, scope });
    }
    const match = CREDENTIALS.exec(header);
    if (match === null)
      return challengeResponse(401, {
        resourceMetadata: metadataUrl,
        error: 'invalid_token',
        errorDescription: 'expected "Authorization: Bearer <token>" or "DPoP <token>"',
        scope,
      });
    let info: AuthInfo;
    try {
      const token = match[2] as string;
      info = await verify(token, request);
      await checkBinding(info, (match[1] as string).toLowerCase() === 'dpop', token, request, dpop);
    } catch (error) {
      const failure =
        error instanceof AuthError
          ? error
          : new AuthError('verifier_unavailable', 'the token verifier failed', { cause: error });
      if (failure.code !== 'invalid_token') {
        options.onerror?.(failure);
        return new Response(JSON.stringify({ error: 'temporarily_unavailable' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '5' },
        });
      }
      return challengeResponse(401, {
        resourceMetadata: metadataUrl,
        error: 'invalid_token',
        errorDescription: failure.message,
        scope,
      });
    }
    const missing = required.filter((s) => !info.scopes.includes(s));
    if (missing.length > 0)
      // MCP 2025-11-25 "Scope Challenge Handling": name every scope the operation needs.
      return challengeResponse(403, {
        resourceMetadata: metadataUrl,
        error: 'insufficient_scope',
        errorDescription: `this resource needs the scopes: ${required.join(' ')}`,
        scope: [...new Set([...info.scopes, ...required])].join(' '),
      });
    return info;
  };
}

function verifierOf(options: BearerAuthOptions): TokenVerifier {
  const given = [options.jwks, options.introspection, options.verify].filter((v) => v !== undefined);
  if (given.length !== 1)
    throw new AuthError('invalid_options', 'bearerAuth needs exactly one of jwks, introspection, verify');
  if (options.verify !== undefined) return options.verify;
  if (options.introspection !== undefined)
    return introspectionVerifier({
      ...options.introspection,
      resource: options.resource,
      clockToleranceSec: options.clockToleranceSec,
    });
  return jwtVerifier({
    jwks: options.jwks as string | URL | JSONWebKeySet,
    issuers: options.authorizationServers.map(String),
    resource: options.resource,
    clockToleranceSec: options.clockToleranceSec,
    accessTokenTypes: options.accessTokenTypes,
    jwksCooldownMs: options.jwksCooldownMs,
    jwksTimeoutMs: options.jwksTimeoutMs,
    jwksMaxBytes: options.jwksMaxBytes,
    algorithms: options.algorithms,
  });
}

/** RFC 9449 §7.1: a key-bound token needs the DPoP scheme and a proof by that key. */
async function checkBinding(
  info: AuthInfo,
  dpopScheme: boolean,
  token: string,
  request: Request,
  dpop: DpopProofVerifier | undefined,
): Promise<void> {
  const cnf = info.extra?.['cnf'];
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  if (!dpopScheme) {
    if (typeof jkt === 'string')
      throw new AuthError('invalid_token', 'this token is DPoP-bound; present it with the DPoP scheme');
    return;
  }
  if (dpop === undefined) throw new AuthError('invalid_token', 'DPoP tokens are not accepted here');
  if (typeof jkt !== 'string')
    throw new AuthError('invalid_token', 'a DPoP token must be bound to a key (cnf.jkt)');
  const proof = request.headers.get('dpop');
  if (proof === null || proof.includes(','))
    throw new AuthError('invalid_token', 'one DPoP proof header is required');
  await dpop.verify({ proof, request, accessToken: token, jkt });
}
