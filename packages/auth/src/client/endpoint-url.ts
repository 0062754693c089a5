import { AuthError } from '../auth-error.js';

/**
 * Which `http:` URLs the OAuth client may use. `loopback`: only on loopback hosts (the default when the
 * MCP server itself is `http:` on one); `any`: anywhere (only an explicit `allowInsecureHttp: true`).
 */
export type HttpPolicy = 'never' | 'loopback' | 'any';

/** True for `localhost`, `127.0.0.0/8` and `[::1]` (RFC 8252 §7.3, RFC 6761 §6.3). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks a URL the client is about to fetch, or to send the user to: `https:`, or `http:` where the
 * policy allows it. Anything else (`file:`, `javascript:`, a custom handler) is refused before it is
 * fetched or opened: an authorization server is not trusted to name what the user's machine runs
 * (the mcp-remote command injection, CVE-2025-6514, started from an `authorization_endpoint`).
 */
export function checkEndpointUrl(value: unknown, what: string, policy: HttpPolicy): URL {
  let url: URL;
  try {
    url = new URL(typeof value === 'string' || value instanceof URL ? value : '');
  } catch {
    throw new AuthError('invalid_metadata', `${what} is not a URL`);
  }
  if (isAllowedUrl(url, policy)) return url;
  const allowed =
    policy === 'never'
      ? 'only https: is allowed'
      : policy === 'loopback'
        ? 'only https:, or http: on a loopback host, is allowed'
        : 'only https: and http: are allowed';
  throw new AuthError(
    'invalid_metadata',
    `refusing ${what}: ${url.protocol}${url.protocol === 'http:' ? ` on ${url.hostname}` : ''} URL (${allowed}; see allowInsecureHttp)`,
  );
}

/** `https:`, or `http:` where the policy allows it. */
export function isAllowedUrl(url: URL, policy: HttpPolicy): boolean {
  if (url.protocol === 'https:') return true;
  return (
    url.protocol === 'http:' && (policy === 'any' || (policy === 'loopback' && isLoopbackHost(url.hostname)))
  );
}

/**
 * Every member of Authorization Server metadata (RFC 8414 §2, OIDC Discovery §3) that the client may
 * fetch or send the user to: the `*_endpoint`s, `jwks_uri` and `mtls_endpoint_aliases` (RFC 8705 §5).
 */
export function checkMetadataUrls(
  metadata: Record<string, unknown>,
  where: string,
  policy: HttpPolicy,
): void {
  for (const [name, value] of Object.entries(metadata)) {
    // An absent member sent as null is absent (lenient servers do this); it is never fetched.
    if (value === null || value === undefined) continue;
    if (name.endsWith('_endpoint') || name === 'jwks_uri' || name === 'issuer')
      checkEndpointUrl(value, `${name} of ${where}`, policy);
    else if (name === 'mtls_endpoint_aliases' && typeof value === 'object' && value !== null)
      for (const [alias, url] of Object.entries(value))
        checkEndpointUrl(url, `mtls_endpoint_aliases.${alias} of ${where}`, policy);
  }
}
