import { insufficientScopeError, missingScopes } from '@x/protocol/core';
import type { ServerContext } from '../server-context.js';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), so no spaces, quotes or backslashes.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The `requiredScopes` of a registration, checked once: undefined when none, else a frozen copy. Throws
 * at registration for anything that is not an array of RFC 6749 scope tokens.
 */
export function requiredScopesOf(value: unknown, what: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new Error(`${what}: requiredScopes must be an array of scope strings`);
  for (const scope of value) {
    if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
      throw new Error(
        `${what}: requiredScopes holds ${JSON.stringify(scope)}, not an OAuth scope token (RFC 6749 §3.3)`,
      );
    }
  }
  return value.length === 0 ? undefined : Object.freeze([...(value as string[])]);
}

/**
 * Fails the request before its handler runs when the caller's token lacks a required scope. A request
 * without `authInfo` (no `authenticate` hook in front of the server, or stdio) is not checked: scopes
 * are granted by an authorization server, and only a verified token carries them.
 */
export function checkScopes(required: readonly string[] | undefined, ctx: ServerContext): void {
  if (required === undefined) return;
  const auth = ctx.authInfo;
  if (auth === undefined) return;
  const missing = missingScopes(auth.scopes, required);
  if (missing.length > 0) throw insufficientScopeError(required, missing);
}
