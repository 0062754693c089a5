/**
 * `{ ...source, ...extra }`: a fresh object with `source`'s own enumerable keys, then `extra`'s.
 * Written with `Object.assign` because on Node 20 an object literal that spreads and then adds keys
 * takes V8's slow path (~0.35 µs against ~0.05 µs per copy). A source with an own `__proto__` key (from
 * `JSON.parse`) keeps the spread, which copies it as data where `Object.assign` would set the copy's
 * prototype.
 *
 * @example
 * ```ts
 * const params = copyWith(callerParams, { _meta: meta }); // callerParams stays untouched
 * ```
 */
export function copyWith(
  source: object | undefined,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  if (source !== undefined && Object.hasOwn(source, '__proto__')) return { ...source, ...extra };
  return Object.assign({}, source, extra);
}
