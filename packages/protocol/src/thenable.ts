/**
 * Whether `await` would wait on `value`: a promise, or any object or function with a `then` method.
 * Lets a caller take a synchronous result as it is and pay for a promise only when there is one.
 *
 * @example
 * ```ts
 * const result = handler(params);
 * if (isThenable(result)) return Promise.resolve(result).then(finish);
 * return finish(result);
 * ```
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
