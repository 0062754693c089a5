/** The parameters of a `Bearer` challenge the client acts on (RFC 6750 §3, RFC 9728 §5.1). */
export interface ParsedChallenge {
  resourceMetadata?: string | undefined;
  scope?: string | undefined;
  error?: string | undefined;
}

// auth-param = token BWS "=" BWS ( token / quoted-string )  (RFC 9110 §11.2)
const PARAM = /([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9!#$%&'*+./^_`|~:-]+))/g;

/**
 * Reads the `Bearer` challenge of a `WWW-Authenticate` value (other schemes are skipped). Unknown
 * parameters are ignored; a value longer than 2048 characters is dropped.
 *
 * @example
 * ```ts
 * parseBearerChallenge('Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", scope="a b"');
 * // { resourceMetadata: 'https://x.example/.well-known/oauth-protected-resource', scope: 'a b' }
 * ```
 */
export function parseBearerChallenge(header: string | null): ParsedChallenge | undefined {
  if (header === null) return undefined;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start === -1) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, '');
  // The Bearer challenge ends where another scheme's challenge starts (`, Scheme ` without `=`).
  const end = rest.search(/,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\s+[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=/);
  const params = end === -1 ? rest : rest.slice(0, end);
  const out: ParsedChallenge = {};
  for (const match of params.matchAll(PARAM)) {
    const name = (match[1] as string).toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] as string);
    if (value.length > 2048) continue;
    if (name === 'resource_metadata') out.resourceMetadata = value;
    else if (name === 'scope') out.scope = value;
    else if (name === 'error') out.error = value;
  }
  return out;
}
