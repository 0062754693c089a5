import type { ElicitRequestParams, ElicitResult } from '@x/protocol/core';

/**
 * SEP-1034 (2025-11-25 client/elicitation, "default values"): when the user accepts a form, fields of
 * the requested schema that the answer omits but that declare a `default` take that default, so a
 * server can rely on them. Returns `result` itself when nothing was missing.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { age: { type: 'integer', default: 30 } } } as const;
 * fillElicitationDefaults({ message: 'Age?', requestedSchema: schema }, { action: 'accept', content: {} });
 * // → { action: 'accept', content: { age: 30 } }
 * ```
 */
export function fillElicitationDefaults(params: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || params.mode === 'url') return result;
  const properties = params.requestedSchema.properties;
  let content: NonNullable<ElicitResult['content']> | undefined;
  for (const key of Object.keys(properties)) {
    const fallback = properties[key]?.default;
    const given = result.content;
    if (
      fallback === undefined ||
      (given !== undefined && Object.hasOwn(given, key) && given[key] !== undefined)
    )
      continue;
    content ??= { ...given };
    // A defined property, not an assignment: a server's `__proto__` field must not set the prototype.
    Object.defineProperty(content, key, {
      value: fallback,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return content === undefined ? result : { ...result, content };
}
