const MEDIA_TYPE = /^[^\s/]+\/[^\s/]+$/;

/**
 * The essence of a media type (`type/subtype`, lower-cased, parameters dropped) and its `charset`
 * parameter (RFC 9110 §8.3.1). Returns undefined for a missing or malformed header.
 *
 * @example
 * ```ts
 * parseMediaType('Application/JSON; charset="UTF-8"'); // { type: 'application/json', charset: 'utf-8' }
 * parseMediaType('not a media type'); // undefined
 * ```
 */
export function parseMediaType(
  header: string | null | undefined,
): { type: string; charset?: string } | undefined {
  if (header === null || header === undefined) return undefined;
  // Walks the `;`-separated parts by index: no array of parts, no iterator (this runs per message).
  let end = header.indexOf(';');
  const type = (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return undefined;
  while (end !== -1) {
    const start = end + 1;
    end = header.indexOf(';', start);
    const param = end === -1 ? header.slice(start) : header.slice(start, end);
    const eq = param.indexOf('=');
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
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
 * True for `application/json` in UTF-8, the only encoding JSON may use between systems (RFC 8259 §8.1).
 *
 * @example
 * ```ts
 * isJsonContentType('application/json; charset=utf-8'); // true
 * isJsonContentType('application/json; charset=latin1'); // false
 * isJsonContentType('text/plain'); // false
 * ```
 */
export function isJsonContentType(header: string | null | undefined): boolean {
  // A client sends the same Content-Type on every POST: answer a repeat without parsing it again.
  if (header === lastJsonHeader) return lastJsonAnswer;
  const media = parseMediaType(header);
  const answer =
    media !== undefined &&
    media.type === 'application/json' &&
    (media.charset === undefined || media.charset === 'utf-8' || media.charset === 'utf8');
  lastJsonHeader = header;
  lastJsonAnswer = answer;
  return answer;
}

let lastJsonHeader: string | null | undefined = null;
let lastJsonAnswer = false;

/**
 * True when an `Accept` header admits every one of `types` (RFC 9110 §12.5.1): a media range matches
 * exactly, by `type/*` or by `*\/*`, and `q=0` excludes. A missing header accepts nothing here, because
 * the spec makes the header mandatory ("The client MUST include an Accept header").
 *
 * @example
 * ```ts
 * acceptsAll('application/json, text/event-stream', ['application/json', 'text/event-stream']); // true
 * acceptsAll('application/*, text/*', ['application/json', 'text/event-stream']); // true
 * acceptsAll('application/json, text/event-stream;q=0', ['application/json', 'text/event-stream']); // false
 * acceptsAll('application/json', ['application/json', 'text/event-stream']); // false: no event streams
 * ```
 */
export function acceptsAll(header: string | null, types: readonly string[]): boolean {
  if (header === null) return false;
  const ranges: string[] = [];
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';');
    const excluded = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p));
    if (!excluded) ranges.push(range.trim().toLowerCase());
  }
  return types.every((type) => {
    const slash = type.indexOf('/');
    const major = type.slice(0, slash);
    return ranges.some((r) => r === type || r === '*/*' || r === `${major}/*`);
  });
}
