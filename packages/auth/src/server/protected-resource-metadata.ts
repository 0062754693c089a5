/**
 * `Cache-Control` max-age of the Protected Resource Metadata document (`maxAgeSec`, RFC 9728): one
 * hour. The document changes only when the deployment does, and clients fetch it on every 401 otherwise.
 *
 * @example
 * ```ts
 * const prm = protectedResourceMetadataHandler({ ...options, maxAgeSec: DEFAULT_RESOURCE_METADATA_MAX_AGE_SEC / 4 });
 * ```
 */
export const DEFAULT_RESOURCE_METADATA_MAX_AGE_SEC = 3_600;

/** Options of `protectedResourceMetadataHandler` (RFC 9728 §2 field names). */
export interface ProtectedResourceMetadataOptions {
  /** This resource's identifier: the MCP endpoint URL clients connect to. */
  resource: string | URL;
  /** Issuer URLs of the authorization servers that issue tokens for this resource. */
  authorizationServers: readonly (string | URL)[];
  /** Scopes a client may request (`scopes_supported`); also the client's default scope choice. */
  scopesSupported?: readonly string[] | undefined;
  /** Human-readable name (`resource_name`). */
  resourceName?: string | undefined;
  /** Where the resource documents itself (`resource_documentation`). */
  resourceDocumentation?: string | undefined;
  /** Extra members merged into the document (e.g. `dpop_signing_alg_values_supported`). */
  extra?: Record<string, unknown> | undefined;
  /** `Cache-Control` max-age in seconds. Default {@link DEFAULT_RESOURCE_METADATA_MAX_AGE_SEC} (3600). */
  maxAgeSec?: number | undefined;
}

/**
 * A Web-standard handler that serves the Protected Resource Metadata document (RFC 9728) on GET
 * (and HEAD), with CORS open so browser clients can discover the authorization server. Mount it at
 * `resourceMetadataUrl(resource)`; any other method gets 405.
 *
 * @example
 * ```ts
 * const metadata = protectedResourceMetadataHandler({
 *   resource: 'https://api.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   scopesSupported: ['mcp:tools'],
 * });
 * // in your router: if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return metadata(request);
 * ```
 */
export function protectedResourceMetadataHandler(
  options: ProtectedResourceMetadataOptions,
): (request: Request) => Response {
  const document: Record<string, unknown> = {
    ...options.extra,
    resource: String(options.resource),
    authorization_servers: options.authorizationServers.map(String),
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported !== undefined) document['scopes_supported'] = [...options.scopesSupported];
  if (options.resourceName !== undefined) document['resource_name'] = options.resourceName;
  if (options.resourceDocumentation !== undefined)
    document['resource_documentation'] = options.resourceDocumentation;
  const body = JSON.stringify(document);
  const headers = {
    'content-type': 'application/json',
    'cache-control': `public, max-age=${options.maxAgeSec ?? DEFAULT_RESOURCE_METADATA_MAX_AGE_SEC}`,
    'access-control-allow-origin': '*',
  };
  return (request) => {
    if (request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: { ...headers, 'access-control-allow-methods': 'GET, HEAD, OPTIONS' },
      });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
