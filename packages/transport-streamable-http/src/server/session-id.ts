/**
 * Longest session id the handler issues or accepts (visible ASCII, 2025-11-25 "Session Management"). An
 * `Mcp-Session-Id` longer than this is unknown (404) before any store is asked.
 */
export const MAX_SESSION_ID_LENGTH = 256;

/** What the default `sessionIdGenerator` makes: 128 random bits, base64url without padding. */
const DEFAULT_SESSION_ID = /^[A-Za-z0-9_-]{22}$/;
// "MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E)".
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * Whether `id` could be a session id this handler issued: with the default generator exactly its format,
 * with the caller's own generator visible ASCII up to `MAX_SESSION_ID_LENGTH`. Anything else answers 404
 * without reaching the `sessionStore`, so a header cannot name another key of a shared store (issue #35,
 * finding 12: `Mcp-Session-Id: <id>:subs` named a session's subscription set in Redis).
 */
export function sessionIdCheck(customGenerator: boolean): (id: string) => boolean {
  if (!customGenerator) return (id) => DEFAULT_SESSION_ID.test(id);
  return isVisibleSessionId;
}

/** Visible ASCII, 1 to `MAX_SESSION_ID_LENGTH` characters: what any session id must be. */
export function isVisibleSessionId(id: string): boolean {
  return id.length <= MAX_SESSION_ID_LENGTH && VISIBLE_ASCII.test(id);
}

/** The default `sessionIdGenerator`: 128 random bits, base64url without padding. */
export function defaultSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
