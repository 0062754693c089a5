import type { AuthInfo } from '../transport.js';

/**
 * Where an `authenticate` hook may record the user a token acts for, in `AuthInfo.extra`, in the order
 * they are read: the first string wins.
 *
 * @example
 * ```ts
 * const authInfo = { token, clientId: 'app', scopes: [], extra: { sub: 'alice' } }; // PRINCIPAL_SUBJECT_KEYS[0]
 * ```
 */
export const PRINCIPAL_SUBJECT_KEYS = ['sub', 'subject', 'userId'] as const;

/**
 * The user an `AuthInfo` acts for: the first string of `extra.sub`, `extra.subject`, `extra.userId`
 * (own properties only), else undefined.
 *
 * @example
 * ```ts
 * subjectOf({ token, clientId: 'app', scopes: [], extra: { userId: 'u-42' } }); // 'u-42'
 * ```
 */
export function subjectOf(auth: AuthInfo): string | undefined {
  const extra = auth.extra;
  if (extra === undefined || extra === null) return undefined;
  for (const key of PRINCIPAL_SUBJECT_KEYS) {
    const subject = Object.hasOwn(extra, key) ? extra[key] : undefined;
    if (typeof subject === 'string') return subject;
  }
  return undefined;
}

/**
 * Who an authenticated caller is, as one string every x-mcp server keys by: legacy sessions (Streamable
 * HTTP, SSE) are bound to it, rate limits count per it, tasks belong to it. It is the OAuth client plus,
 * when the hook recorded one (see {@link subjectOf}), the user it acts for, so one app acting for two
 * users is two principals; not the token, so a refreshed token keeps its sessions.
 *
 * Encoded as a JSON array (`["app","alice"]`, `["app"]`): every part is quoted and escaped, so no
 * `clientId` or subject, whatever characters it holds, can spell another pair's principal (a string
 * built with `:` between the parts could: `a:b` + `c` and `a` + `b:c`).
 *
 * @example
 * ```ts
 * principalOf({ token, clientId: 'app', scopes: [], extra: { sub: 'alice' } }); // '["app","alice"]'
 * principalOf({ token, clientId: 'app', scopes: [] }); // '["app"]'
 * ```
 */
export function principalOf(auth: AuthInfo): string {
  const subject = subjectOf(auth);
  return JSON.stringify(subject === undefined ? [auth.clientId] : [auth.clientId, subject]);
}
