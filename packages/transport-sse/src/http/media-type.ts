/**
 * The essence of a media type (`type/subtype`, lower-cased, parameters dropped) and its `charset`
 * parameter (RFC 9110 §8.3.1). Returns undefined for a missing or malformed header.
 */
export function parseMediaType(
  header: string | null | undefined,
): { type: string; charset?: string } | undefined {
  if (header === null || header === undefined) return undefined;
  const [essence = '', ...params] = header.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[^\s/]+\/[^\s/]+$/.test(type)) return undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    return { type, charset };
  }
  return { type };
}

/**
 * True when a request body is declared as JSON in UTF-8, the only encoding JSON may use between
 * systems (RFC 8259 §8.1).
 *
 * @example
 * ```ts
 * isJsonContentType('application/json; charset=utf-8'); // true
 * isJsonContentType('text/plain'); // false
 * ```
 */
export function isJsonContentType(header: string | null | undefined): boolean {
  const media = parseMediaType(header);
  if (media === undefined || media.type !== 'application/json') return false;
  return media.charset === undefined || media.charset === 'utf-8' || media.charset === 'utf8';
}
