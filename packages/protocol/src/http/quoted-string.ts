/**
 * An HTTP quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped with a backslash; control characters,
 * which a quoted-string cannot hold, are dropped. For header parameters such as a `WWW-Authenticate`
 * challenge's `scope` or `error_description`.
 *
 * @example
 * ```ts
 * headers.set('www-authenticate', `Bearer error="insufficient_scope", scope=${quotedString('files:read')}`);
 * ```
 */
export function quotedString(value: string): string {
  let clean = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) continue;
    clean += char === '"' || char === '\\' ? `\\${char}` : char;
  }
  return `"${clean}"`;
}
