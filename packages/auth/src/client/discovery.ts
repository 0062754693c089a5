import * as oauth from 'oauth4webapi';
import { AuthError } from '../auth-error.js';
import { cappedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './capped-fetch.js';
import { checkEndpointUrl, checkMetadataUrls, type HttpPolicy, isAllowedUrl } from './endpoint-url.js';

/** What discovery found for one MCP server. */
export interface Discovered {
  /** The resource indicator to send (the PRM `resource`, else the server URL). */
  resource: string;
  /** PRM `scopes_supported`, when there is a PRM. */
  scopesSupported?: string[] | undefined;
  /** The authorization server's metadata (from RFC 8414 / OIDC discovery, or 2025-03-26 defaults). */
  as: oauth.AuthorizationServer;
  /** True when the server had no PRM (2025-03-26 era: the MCP server's origin is the AS). */
  legacy: boolean;
}

export interface DiscoveryContext {
  /** The fetch to use; the provider gives a `cappedFetch`, so no body is read past its cap. */
  fetch: typeof fetch;
  /** Which `http:` URLs may be fetched (loopback development). */
  http: HttpPolicy;
  /**
   * Origins besides the MCP server's whose `resource_metadata` URL (in a `WWW-Authenticate` challenge)
   * the client fetches. Default none.
   */
  resourceMetadataOrigins?: readonly string[] | undefined;
  /** The most bytes read of one document. Default `DEFAULT_MAX_RESPONSE_BYTES`. */
  maxResponseBytes?: number | undefined;
  signal?: AbortSignal | undefined;
}

async function getJson(url: URL, ctx: DiscoveryContext): Promise<{ status: number; body?: unknown }> {
  if (!isAllowedUrl(url, ctx.http))
    throw new AuthError(
      'discovery_failed',
      `refusing to fetch metadata over ${url.protocol} (${url.origin}); only https:, or http: on a loopback host where allowed (allowInsecureHttp)`,
    );
  const init: RequestInit = { headers: { accept: 'application/json' }, redirect: 'manual' };
  if (ctx.signal !== undefined) init.signal = ctx.signal;
  let response: Response;
  try {
    response = await cappedFetch(ctx.fetch, ctx.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)(url, init);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError('discovery_failed', `could not fetch ${url.origin}${url.pathname}`, { cause: error });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The capped fetch errors the body past maxResponseBytes; that error says so.
    if (error instanceof AuthError) throw error;
    throw new AuthError('discovery_failed', `could not read ${url.origin}${url.pathname}`, { cause: error });
  }
  try {
    return { status: 200, body: JSON.parse(text) };
  } catch {
    throw new AuthError('invalid_metadata', `${url.origin}${url.pathname} is not JSON`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An authorization server's issuer identifier as a URL: RFC 8414 §2 makes it an `https` URL (`http`
 * passes here so loopback development works; `getJson` decides whether it may be fetched). Anything
 * else in a PRM's `authorization_servers` is hostile or broken input and gets a typed error, not the
 * URL parser's TypeError.
 */
function issuerUrlOf(issuer: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

function wellKnown(base: URL, suffix: string, keepPath: boolean): URL {
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/${suffix}${keepPath ? path : ''}`, base.origin);
}

/**
 * RFC 9728 §3.3 / MCP "Protected Resource Metadata Discovery": the PRM `resource` must identify the
 * server we are talking to. Accepts the same origin with a path that is the server's path or a parent
 * folder of it (a PRM for `/` covers `/mcp`).
 */
function resourceCovers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin || url.hash !== '') return false;
  const base = url.pathname.replace(/\/$/, '');
  return (
    server.pathname === url.pathname ||
    base === '' ||
    server.pathname.startsWith(`${base}/`) ||
    server.pathname === base
  );
}

/** Fetches the PRM: the challenge's `resource_metadata` first, then path-inserted and root well-knowns. */
export async function discoverResource(
  serverUrl: URL,
  challengeMetadataUrl: string | undefined,
  ctx: DiscoveryContext,
): Promise<{ resource: string; authorizationServers: string[]; scopesSupported?: string[] } | undefined> {
  const candidates: URL[] = [];
  if (challengeMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(challengeMetadataUrl);
    } catch {
      // a malformed parameter is ignored; the well-known paths follow
    }
    if (url !== undefined) {
      // RFC 9728 §3.3/§7.3: the PRM must name this server as its resource, but that is checked only
      // after the fetch; so the challenge may not make the client fetch just anything first. The
      // server's own origin (where RFC 9728 §3.1 puts the document) is fetched, other origins only
      // when listed in resourceMetadataOrigins.
      if (url.origin !== serverUrl.origin && !(ctx.resourceMetadataOrigins ?? []).includes(url.origin))
        throw new AuthError(
          'discovery_failed',
          `the server's challenge names resource_metadata on ${url.origin}, not ${serverUrl.origin}; allow that origin with the resourceMetadataOrigins option`,
        );
      candidates.push(url);
    }
  }
  candidates.push(wellKnown(serverUrl, 'oauth-protected-resource', true));
  if (serverUrl.pathname !== '/') candidates.push(wellKnown(serverUrl, 'oauth-protected-resource', false));
  for (const url of candidates) {
    const { status, body } = await getJson(url, ctx);
    if (status !== 200) continue;
    if (!isRecord(body) || typeof body['resource'] !== 'string')
      throw new AuthError('invalid_metadata', 'the Protected Resource Metadata has no "resource"');
    if (!resourceCovers(body['resource'], serverUrl))
      throw new AuthError(
        'resource_mismatch',
        `the Protected Resource Metadata names resource ${body['resource']}, not ${serverUrl.href}`,
      );
    const servers = body['authorization_servers'];
    if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string'))
      throw new AuthError(
        'invalid_metadata',
        'the Protected Resource Metadata lists no authorization_servers',
      );
    for (const issuer of servers)
      checkEndpointUrl(issuer, 'an authorization_servers entry of the PRM', ctx.http);
    checkMetadataUrls(body, 'the Protected Resource Metadata', ctx.http);
    const out: { resource: string; authorizationServers: string[]; scopesSupported?: string[] } = {
      resource: body['resource'],
      authorizationServers: servers as string[],
    };
    const scopes = body['scopes_supported'];
    if (Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')) out.scopesSupported = scopes;
    return out;
  }
  return undefined;
}

/**
 * Authorization Server metadata (MCP 2025-11-25 "Authorization Server Metadata Discovery"): for an
 * issuer with a path, OAuth path-inserted, OIDC path-inserted, OIDC path-appended; without a path,
 * OAuth then OIDC. The document's `issuer` must equal the issuer (RFC 8414 §3.3; oauth4webapi checks).
 */
export async function discoverAuthorizationServer(
  issuer: string,
  ctx: DiscoveryContext,
): Promise<oauth.AuthorizationServer | undefined> {
  const issuerUrl = issuerUrlOf(issuer);
  if (issuerUrl === undefined)
    throw new AuthError('invalid_metadata', 'the authorization server issuer is not an http(s) URL');
  const hasPath = issuerUrl.pathname !== '/' && issuerUrl.pathname !== '';
  const candidates = hasPath
    ? [
        wellKnown(issuerUrl, 'oauth-authorization-server', true),
        wellKnown(issuerUrl, 'openid-configuration', true),
        new URL(`${issuerUrl.href.replace(/\/$/, '')}/.well-known/openid-configuration`),
      ]
    : [
        wellKnown(issuerUrl, 'oauth-authorization-server', false),
        wellKnown(issuerUrl, 'openid-configuration', false),
      ];
  for (const url of candidates) {
    const { status, body } = await getJson(url, ctx);
    if (status !== 200) continue;
    if (isRecord(body)) checkMetadataUrls(body, `the authorization server metadata of ${issuer}`, ctx.http);
    try {
      return await oauth.processDiscoveryResponse(
        issuerUrl,
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    } catch (error) {
      throw new AuthError(
        'invalid_metadata',
        `the authorization server metadata at ${url.origin}${url.pathname} does not name issuer ${issuer}`,
        { cause: error },
      );
    }
  }
  return undefined;
}

/** The whole discovery: PRM → AS metadata, or the 2025-03-26 fallbacks when there is no PRM. */
export async function discover(
  serverUrl: URL,
  challengeMetadataUrl: string | undefined,
  ctx: DiscoveryContext,
): Promise<Discovered> {
  const prm = await discoverResource(serverUrl, challengeMetadataUrl, ctx);
  if (prm !== undefined) {
    const issuer = prm.authorizationServers[0] as string;
    const as = await discoverAuthorizationServer(issuer, ctx);
    if (as === undefined)
      throw new AuthError('discovery_failed', `no authorization server metadata for ${issuer}`);
    return { resource: prm.resource, scopesSupported: prm.scopesSupported, as, legacy: false };
  }
  // 2025-03-26 "Server Metadata Discovery": the authorization base URL is the MCP server's origin;
  // without metadata, the default endpoints /authorize, /token and /register apply.
  const origin = serverUrl.origin;
  const as = (await discoverAuthorizationServer(origin, ctx)) ?? {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
  return { resource: serverUrl.href, as, legacy: true };
}
