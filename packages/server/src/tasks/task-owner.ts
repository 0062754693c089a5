import type { AuthInfo } from '@x/protocol/core';
import { principalOf, subjectOf } from '@x/protocol/http';

/**
 * The key of an authenticated requestor (spec 2025-11-25 basic/utilities/tasks "Task Isolation and
 * Access Control"; SEP-2663 "Auth binding"): its principal (`principalOf`: the client and the user of
 * `extra.sub` / `subject` / `userId`, the rule legacy sessions are bound by) when the token names a
 * user, else the client id and a hash of the token (tokens never reach a durable store in the clear).
 * The parts are JSON-encoded, so no `clientId` or user can spell another pair's key; keys may be stored
 * (a Redis `TaskStore`), and tasks created under the old `auth:<clientId>:sub:<sub>` form are not found
 * under the new one.
 */
export async function principalKey(authInfo: AuthInfo): Promise<string> {
  if (subjectOf(authInfo) !== undefined) return `auth:${principalOf(authInfo)}`;
  return `auth-token:${JSON.stringify([authInfo.clientId, await sha256(authInfo.token)])}`;
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
