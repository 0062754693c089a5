import type { AuthInfo } from '@x/protocol';

/**
 * Default clock skew allowed on `exp`/`nbf`, in seconds. Small: RFC 9068 profiles and common resource
 * servers allow seconds, not half a minute, and every second extends an expired token's life.
 */
export const DEFAULT_CLOCK_TOLERANCE_SEC = 5;

/**
 * Turns a bearer token into the caller's `AuthInfo`. Throw `AuthError('invalid_token', …)` for a token
 * that is not valid here; any other error is treated as the verifier being unavailable (503).
 */
export type TokenVerifier = (token: string, request: Request) => Promise<AuthInfo>;

/** The scopes a token carries: `scope` (space-separated, RFC 9068 / RFC 7662) or `scp` (array). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  const scope = claims['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  const scp = claims['scp'];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The client a token was issued to: `client_id` (RFC 9068 §2.2), else `azp`, else `sub`. */
export function clientIdOf(claims: Record<string, unknown>): string {
  for (const name of ['client_id', 'azp', 'sub']) {
    const value = claims[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

/** Audience forms a token may carry for `resource`: as configured and as the URL parser writes it. */
export function audiencesOf(resource: string | URL): string[] {
  const given = String(resource);
  const parsed = new URL(given).href;
  return parsed === given ? [given] : [given, parsed];
}
