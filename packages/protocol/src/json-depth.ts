/**
 * Nesting depth of JSON text, measured before `JSON.parse` builds it: a few megabytes of `[[[[…]]]]` under
 * any size limit hold the event loop for seconds and hundreds of megabytes while `JSON.parse` and then
 * the validators walk it, and end in "Maximum call stack size exceeded" on the way out. A linear scan that
 * skips string contents refuses such text in the time it takes to read it.
 */

/**
 * Default bound on how deeply arrays and objects of one message may nest. MCP's own envelopes nest a
 * handful of levels and real tool schemas a few dozen; 128 leaves room for both and stops hostile input
 * long before it costs anything.
 *
 * @example
 * ```ts
 * const message = parseMessage(text, { maxNestingDepth: 2 * DEFAULT_MAX_NESTING_DEPTH });
 * ```
 */
export const DEFAULT_MAX_NESTING_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether `text`, read as JSON, nests arrays and objects more than `maxDepth` levels deep. Linear in the
 * text's length; string contents (escapes included) are skipped, so brackets inside strings do not count.
 * Text that is not JSON is not judged here: `JSON.parse` refuses it afterwards.
 *
 * @example
 * ```ts
 * if (exceedsNestingDepth(body, 64)) return jsonRpcErrorResponse(400, ErrorCode.ParseError, 'too deep');
 * ```
 */
export function exceedsNestingDepth(text: string, maxDepth: number): boolean {
  const length = text.length;
  // A depth over maxDepth needs at least maxDepth + 1 opening characters: shorter text, or text with
  // fewer `[` and `{` anywhere (string contents included), cannot have it. Counting them is a few native
  // `indexOf` jumps for an everyday message; only text with many openers gets the exact scan.
  if (length <= maxDepth || openersAtMost(text, maxDepth)) return false;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = endOfString(text, index + 1);
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** Whether `text` holds at most `limit` `[` and `{` characters in all. */
function openersAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) {
    if (++count > limit) return false;
  }
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) {
    if (++count > limit) return false;
  }
  return true;
}

/** Index of the quote that closes the string whose contents start at `from` (or the text's end). */
function endOfString(text: string, from: number): number {
  let at = from;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let back = quote - 1; back >= from && text.charCodeAt(back) === BACKSLASH; back--) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
