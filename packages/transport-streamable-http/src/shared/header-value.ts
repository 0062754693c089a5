/**
 * Header value encoding of 2026-07-28 streamable-http, "Value Encoding": a value that is not a plain,
 * header-safe ASCII string travels as `=?base64?{Base64 of its UTF-8}?=`. Runtime-neutral (no Buffer).
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
// RFC 9110 field values: visible ASCII, space and tab; the spec adds "no leading/trailing whitespace".
const SAFE_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= 11;
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The header form of a value: as-is when safe, otherwise the Base64 sentinel (also for a plain value
 * that already looks like the sentinel, so it cannot be misread).
 *
 * @example
 * ```ts
 * encodeHeaderValue('us-west1'); // 'us-west1'
 * encodeHeaderValue('Hello, 世界'); // '=?base64?SGVsbG8sIOS4lueVjA==?='
 * ```
 */
export function encodeHeaderValue(value: string): string {
  if (SAFE_VALUE.test(value) && !isSentinel(value)) return value;
  return SENTINEL_PREFIX + toBase64(value) + SENTINEL_SUFFIX;
}

/**
 * The value a header carries: the decoded text of a Base64 sentinel, the header itself when it is plain
 * and header-safe, or undefined when it is neither (invalid characters or broken Base64/UTF-8).
 *
 * @example
 * ```ts
 * decodeHeaderValue('=?base64?IHBhZGRlZCA=?='); // ' padded '
 * ```
 */
export function decodeHeaderValue(header: string): string | undefined {
  if (isSentinel(header)) {
    const encoded = header.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length);
    if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return undefined;
    try {
      const binary = atob(encoded);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return SAFE_VALUE.test(header) ? header : undefined;
}
