/**
 * The Protected Resource Metadata URL of a resource (RFC 9728 §3.1): the well-known suffix inserted
 * between the host and the path, so `https://api.example.com/mcp` has its metadata at
 * `https://api.example.com/.well-known/oauth-protected-resource/mcp`.
 *
 * @example
 * ```ts
 * resourceMetadataUrl('https://api.example.com/mcp').href;
 * // 'https://api.example.com/.well-known/oauth-protected-resource/mcp'
 * ```
 */
export function resourceMetadataUrl(resource: string | URL): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}
