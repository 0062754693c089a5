import * as oauth from 'oauth4webapi';
import { AuthError, type AuthErrorCode } from '../auth-error.js';

/**
 * Maps an oauth4webapi failure to an `AuthError`. Only OAuth error codes and fixed text reach the
 * message: response bodies and parameters (which may hold codes or tokens) never do.
 */
export function toAuthError(error: unknown, code: AuthErrorCode, what: string): AuthError {
  if (error instanceof AuthError) return error;
  // oauth4webapi wraps a failed body read (the capped fetch's response_too_large) in its own error.
  for (
    let cause = (error as { cause?: unknown })?.cause, depth = 0;
    depth < 4 && cause !== undefined;
    depth++
  ) {
    if (cause instanceof AuthError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  if (error instanceof oauth.ResponseBodyError)
    return new AuthError(code, `${what}: the server answered ${error.status} ${oauthCode(error.error)}`, {
      cause: error,
    });
  if (error instanceof oauth.AuthorizationResponseError)
    return new AuthError(
      'authorization_failed',
      `${what}: the authorization server answered ${oauthCode(error.error)}`,
      {
        cause: error,
      },
    );
  if (error instanceof oauth.OperationProcessingError && /"iss"/.test(error.message))
    // RFC 9207 §2.4: a missing or different `iss` means the response may come from another AS (mix-up).
    return new AuthError(
      'issuer_mismatch',
      `${what}: the authorization response "iss" is not the expected issuer`,
      {
        cause: error,
      },
    );
  return new AuthError(code, `${what} failed`, { cause: error });
}

function oauthCode(value: string): string {
  return /^[\w.-]{1,64}$/.test(value) ? value : 'an error';
}
