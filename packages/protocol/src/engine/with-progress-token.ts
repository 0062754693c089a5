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
  return { ...params, _meta: { ...base, progressToken: token } };
}
