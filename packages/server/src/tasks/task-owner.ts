import type { AuthInfo } from '@x/protocol';

/**
 * The key of an authenticated requestor (spec 2025-11-25 basic/utilities/tasks "Task Isolation and
 * Access Control"; SEP-2663 "Auth binding"): its `sub` when the token carries one, else the client id
 * and a hash of the token (tokens never reach a durable store in the clear).
 */
export async function principalKey(authInfo: AuthInfo): Promise<string> {
  const subject = authInfo.extra?.['sub'];
  if (typeof subject === 'string') return `auth:${authInfo.clientId}:sub:${subject}`;
  return `auth:${authInfo.clientId}:token:${await sha256(authInfo.token)}`;
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
