/**
 * Returns `params` with `_meta.progressToken` set, copying rather than mutating: the caller may reuse or
 * freeze its params object (spec: basic/utilities/progress, the token travels in request `_meta`).
 */
export function withProgressToken(
  params: Record<string, unknown> | undefined,
  token: number,
): Record<string, unknown> {
  const meta = params?.['_meta'];
  const base = typeof meta === 'object' && meta !== null ? meta : undefined;
  const _meta = copyWith(base, { progressToken: token });
  return copyWith(params, { _meta });
}

/**
 * `{ ...source, ...extra }`, with `Object.assign` because on Node 20 a literal that spreads and then adds
 * properties takes V8's slow path (~0.35 µs against ~0.05 µs). A source with an own `__proto__` key
 * (from `JSON.parse`) keeps the spread, which copies it as data instead of setting the prototype.
 */
function copyWith(source: object | undefined, extra: Record<string, unknown>): Record<string, unknown> {
  if (source !== undefined && Object.hasOwn(source, '__proto__')) return { ...source, ...extra };
  return Object.assign({}, source, extra);
}
