import { copyWith } from '../copy-with.js';

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
