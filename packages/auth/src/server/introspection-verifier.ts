import type { AuthInfo } from '@x/protocol';
import { AuthError } from '../auth-error.js';
import { audiencesOf, clientIdOf, scopesOf, type TokenVerifier } from './token-verifier.js';

/** Options of `introspectionVerifier`. */
export interface IntrospectionVerifierOptions {
  /** The AS's `introspection_endpoint`. */
  endpoint: string | URL;
  /** This resource server's credentials at the AS (`client_secret_basic`). */
  clientId: string;
  clientSecret: string;
  /** This resource: an `aud` in the answer must name it (RFC 8707 §2). */
  resource: string | URL;
  /** Allowed skew for `exp`, in seconds. Default 30. */
  clockToleranceSec?: number | undefined;
  fetch?: typeof fetch | undefined;
}

function basic(id: string, secret: string): string {
  // RFC 6749 §2.3.1: form-urlencode each part before base64.
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(id)}:${encode(secret)}`)}`;
}

/**
 * Verifies opaque (or any) tokens with OAuth 2.0 Token Introspection (RFC 7662): `active`, `exp`,
 * and `aud` when present must name this resource.
 *
 * @example
 * ```ts
 * const verify = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/token/introspect',
 *   clientId: 'mcp-server', clientSecret: process.env.INTROSPECTION_SECRET!,
 *   resource: 'https://api.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const fetchImpl = options.fetch ?? fetch;
  const audiences = new Set(audiencesOf(options.resource));
  const tolerance = options.clockToleranceSec ?? 30;
  const authorization = basic(options.clientId, options.clientSecret);
  return async (token) => {
    let claims: Record<string, unknown>;
    try {
      const response = await fetchImpl(options.endpoint, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
      if (!response.ok) throw new Error(`introspection answered ${response.status}`);
      const body: unknown = await response.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new Error('introspection answered a non-object');
      claims = body as Record<string, unknown>;
    } catch (error) {
      throw new AuthError('verifier_unavailable', 'the token introspection endpoint failed', {
        cause: error,
      });
    }
    if (claims['active'] !== true) throw new AuthError('invalid_token', 'the access token is not active');
    const exp = claims['exp'];
    if (typeof exp === 'number' && exp + tolerance < Date.now() / 1000)
      throw new AuthError('invalid_token', 'the access token has expired');
    const aud = claims['aud'];
    if (aud !== undefined) {
      const list = Array.isArray(aud) ? aud : [aud];
      if (!list.some((a) => typeof a === 'string' && audiences.has(a)))
        throw new AuthError('invalid_token', `the access token's "aud" claim is not accepted here`);
    }
    const info: AuthInfo = {
      token,
      clientId: clientIdOf(claims),
      scopes: scopesOf(claims),
      resource: new URL(options.resource),
      extra: { sub: claims['sub'], iss: claims['iss'], cnf: claims['cnf'] },
    };
    if (typeof exp === 'number') info.expiresAt = exp;
    return info;
  };
}
