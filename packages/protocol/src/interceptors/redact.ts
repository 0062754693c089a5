/** What {@link redact} puts in place of a secret. */
export const REDACTED = '[REDACTED]';

/**
 * Key names whose values are secrets wherever they appear (case-insensitive): tokens, passwords,
 * API keys, cookies, authorization headers, client secrets.
 *
 * @example
 * ```ts
 * DEFAULT_SECRET_KEYS.test('access_token'); // true
 * ```
 */
export const DEFAULT_SECRET_KEYS =
  /token|secret|passw(or)?d|api[-_]?key|authorization|cookie|credential|private[-_]?key/i;

/** A bearer or basic credential inside a string value. */
const CREDENTIAL_VALUE = /\b(Bearer|Basic|DPoP)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * A deep copy of `value` with secrets replaced by `[REDACTED]`: values under keys matching
 * `secretKeys`, the keys listed in `sensitive` (exact names, e.g. a tool's sensitive arguments, at the
 * top level of `value`), and `Bearer …` credentials inside strings. Depth is capped (deeper parts are
 * summarised), so a hostile message cannot make logging expensive.
 *
 * @example
 * ```ts
 * redact({ user: 'ada', apiKey: 'k-123', note: 'Bearer abcdefghij' });
 * // { user: 'ada', apiKey: '[REDACTED]', note: '[REDACTED]' }
 * ```
 */
export function redact(
  value: unknown,
  options: { secretKeys?: RegExp | undefined; sensitive?: ReadonlySet<string> | undefined } = {},
): unknown {
  return copy(value, options.secretKeys ?? DEFAULT_SECRET_KEYS, options.sensitive, 0);
}

const MAX_DEPTH = 16;

function copy(
  value: unknown,
  secretKeys: RegExp,
  sensitive: ReadonlySet<string> | undefined,
  depth: number,
): unknown {
  if (typeof value === 'string') return value.replace(CREDENTIAL_VALUE, REDACTED);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]';
  if (Array.isArray(value)) return value.map((item) => copy(item, secretKeys, undefined, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      secretKeys.test(key) || sensitive?.has(key) === true
        ? REDACTED
        : copy(item, secretKeys, undefined, depth + 1);
  }
  return out;
}
