/** Every failure `@x/auth` reports. The message never contains a token, code or secret. */
export type AuthErrorCode =
  /** The bearer token is missing, malformed, expired, tampered with or for another audience. */
  | 'invalid_token'
  /** The token lacks a scope the request needs (403). */
  | 'insufficient_scope'
  /** Options that cannot work (e.g. no way to verify tokens). */
  | 'invalid_options'
  /** No usable Protected Resource or Authorization Server metadata. */
  | 'discovery_failed'
  /** A metadata document is malformed, or names another resource or issuer than expected. */
  | 'invalid_metadata'
  /** The Protected Resource Metadata `resource` is not this server (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The authorization response came from another issuer than the one we asked (RFC 9207). */
  | 'issuer_mismatch'
  /** The authorization server refused or the user declined (error in the redirect). */
  | 'authorization_failed'
  /** The interactive step (`authorize` option) is missing or gave no callback URL. */
  | 'interaction_required'
  /** Dynamic Client Registration failed (RFC 7591). */
  | 'registration_failed'
  /** The token endpoint refused a grant (code, refresh, client credentials, token exchange). */
  | 'token_request_failed'
  /** More re-authorizations for wider scopes than `maxStepUps` allows (SEP-835). */
  | 'step_up_limit'
  /** The introspection endpoint or the JWKS could not be reached, timed out or answered garbage (503). */
  | 'verifier_unavailable'
  /** The DPoP replay cache has no room without forgetting an unexpired proof (503, try again). */
  | 'replay_cache_full'
  /** A response body (metadata, registration, token) is larger than `maxResponseBytes`. */
  | 'response_too_large'
  /** The token file or its folder is a symlink, or writable by others (`FileTokenStore`). */
  | 'insecure_storage';

/**
 * A typed authorization failure.
 *
 * @example
 * ```ts
 * try {
 *   await provider.authorize();
 * } catch (error) {
 *   if (error instanceof AuthError && error.code === 'issuer_mismatch') alertUser('mix-up attack blocked');
 * }
 * ```
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: redactCause(options.cause) });
    this.code = code;
  }
}

/**
 * Errors from libraries may quote a token (a JWT in a parse error, a form body); keep only their
 * name, code and a scrubbed message so nothing secret rides along in `cause`.
 */
function redactCause(cause: unknown): unknown {
  if (!(cause instanceof Error)) return undefined;
  const copy = new Error(redactSecrets(cause.message));
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  return copy;
}

/** Replaces anything shaped like a JWT or a long opaque credential with `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[redacted]')
    .replace(/\b[A-Za-z0-9._~+/-]{32,}=*/g, '[redacted]');
}
