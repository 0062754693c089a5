import { AuthError } from '../auth-error.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../client/capped-fetch.js';
import { discoverAuthorizationServer } from '../client/discovery.js';
import { checkEndpointUrl, type HttpPolicy, isLoopbackHost } from '../client/endpoint-url.js';

/** Default `timeoutMs` of {@link discoverJwksUri}: the whole look-up, every well-known URL tried. */
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 10_000;

/** Options of {@link discoverJwksUri}. */
export interface DiscoverJwksUriOptions {
  /** The most bytes read of one metadata document. Default `DEFAULT_MAX_RESPONSE_BYTES` (256 KiB). */
  maxResponseBytes?: number | undefined;
  /** Abandon the look-up after this long. Default `DEFAULT_DISCOVERY_TIMEOUT_MS` (10 000). */
  timeoutMs?: number | undefined;
  /**
   * Allow `http:` metadata and key set URLs on any host. Default false: `https:` only, or `http:` on a
   * loopback host when the issuer itself is `http:` on one (local development).
   */
  allowInsecureHttp?: boolean | undefined;
  /** The fetch to use. Default the global `fetch`. */
  fetch?: typeof fetch | undefined;
}

/**
 * The `jwks_uri` of an authorization server, from its RFC 8414 metadata or its OpenID Connect discovery
 * document (the well-known URLs MCP 2025-11-25 "Authorization Server Metadata Discovery" lists, in its
 * order). The document must name `issuer` as its issuer (RFC 8414 §3.3), is read up to
 * `maxResponseBytes`, and its `jwks_uri` must be `https:` (or `http:` on a loopback host for a loopback
 * issuer): a resource server that only knows its issuer gets its key set the way a client would.
 * Failures are `AuthError`s (`discovery_failed`, `invalid_metadata`) that name the URL and the option.
 *
 * @example
 * ```ts
 * const issuer = 'https://auth.example.com';
 * const authenticate = bearerAuth({
 *   resource: 'https://api.example.com/mcp',
 *   authorizationServers: [issuer],
 *   jwks: await discoverJwksUri(issuer),
 * });
 * ```
 */
export async function discoverJwksUri(
  issuer: string | URL,
  options: DiscoverJwksUriOptions = {},
): Promise<URL> {
  const issuerText = String(issuer);
  const policy = httpPolicyFor(issuerText, options.allowInsecureHttp === true);
  const timeoutMs = options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let metadata: Awaited<ReturnType<typeof discoverAuthorizationServer>>;
  try {
    metadata = await discoverAuthorizationServer(issuerText, {
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      http: policy,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      signal,
    });
  } catch (error) {
    if (signal.aborted)
      throw new AuthError(
        'discovery_failed',
        `no metadata from ${issuerText} within ${timeoutMs} ms (timeoutMs)`,
        { cause: error },
      );
    throw error;
  }
  if (metadata === undefined)
    throw new AuthError(
      'discovery_failed',
      `${issuerText} serves no authorization server metadata (RFC 8414) or OpenID configuration`,
    );
  if (metadata.jwks_uri === undefined)
    throw new AuthError('invalid_metadata', `the metadata of ${issuerText} has no jwks_uri`);
  return checkEndpointUrl(metadata.jwks_uri, `the jwks_uri of ${issuerText}`, policy);
}

function httpPolicyFor(issuer: string, allowInsecureHttp: boolean): HttpPolicy {
  if (allowInsecureHttp) return 'any';
  try {
    const url = new URL(issuer);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname) ? 'loopback' : 'never';
  } catch {
    // discoverAuthorizationServer refuses a non-URL issuer with a typed error of its own.
    return 'never';
  }
}
