import type { HttpClientAuthOptions } from '@x/protocol/http';
import * as oauth from 'oauth4webapi';
import { AuthError } from '../auth-error.js';
import type { AssertionSource } from './assertion-source.js';
import { parseBearerChallenge, type ParsedChallenge } from './bearer-challenge.js';
import { cappedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './capped-fetch.js';
import { type ClientPrivateKey, clientAuthFor } from './client-auth.js';
import { DpopProofs, withDpopNonceRetry } from './dpop-proofs.js';
import {
  type Discovered,
  type DiscoveryContext,
  discover,
  discoverAuthorizationServer,
} from './discovery.js';
import { checkEndpointUrl, type HttpPolicy, isLoopbackHost } from './endpoint-url.js';
import { toAuthError } from './oauth-errors.js';
import {
  type AuthState,
  InMemoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';

/**
 * Seconds before its expiry that an access token is refreshed (`refreshSkewSec`): 60, so a token
 * does not expire between the check and the server reading it, even with some clock skew.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({ ...options, refreshSkewSec: 2 * DEFAULT_REFRESH_SKEW_SEC });
 * ```
 */
export const DEFAULT_REFRESH_SKEW_SEC = 60;

/**
 * Re-authorizations for wider scopes (403 `insufficient_scope`) in a row before giving up
 * (`maxStepUps`): 2, enough for a server that asks for one scope, then one more, yet no loop with a
 * server that keeps refusing.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({ ...options, maxStepUps: DEFAULT_MAX_STEP_UPS + 1 });
 * ```
 */
export const DEFAULT_MAX_STEP_UPS = 2;

/** Options of `OAuthClientProvider`. */
export interface OAuthClientProviderOptions {
  /** The MCP server URL (the protected resource). */
  serverUrl: string | URL;
  /** `authorization_code` (a user consents; default) or `client_credentials` (a machine client). */
  grant?: 'authorization_code' | 'client_credentials' | 'jwt_bearer' | undefined;
  /**
   * The JWT for the `jwt_bearer` grant (RFC 7523): a workload identity token (SEP-1933), or an
   * ID-JAG from your IdP (SEP-990, see `tokenExchangeAssertion`). Called for each token request.
   */
  assertion?: AssertionSource | undefined;
  /** Where the AS sends the user back (authorization code grant). */
  redirectUri?: string | URL | undefined;
  /**
   * The interactive step: show `authorizationUrl` to the user (open a browser, print it) and resolve
   * with the URL the AS redirected back to (`redirectUri?code=…&state=…`).
   */
  authorize?: ((authorizationUrl: URL) => Promise<string | URL>) | undefined;
  /** A pre-registered client (no registration). */
  client?: StoredClient | undefined;
  /** Key for `private_key_jwt` client authentication. */
  privateKey?: ClientPrivateKey | undefined;
  /** Client ID Metadata Document URL used as `client_id` where the AS supports it (SEP-991). */
  clientMetadataUrl?: string | undefined;
  /** Extra Dynamic Client Registration metadata (`client_name`, `logo_uri`, …). */
  clientMetadata?: Record<string, unknown> | undefined;
  /** A fixed scope; default: the challenge's, else the PRM `scopes_supported`, else none. */
  scope?: string | undefined;
  /** Ask for `offline_access` (refresh tokens) when the AS lists it (SEP-2207). Default true. */
  offlineAccess?: boolean | undefined;
  /** Default `InMemoryTokenStore`. */
  store?: TokenStore | undefined;
  fetch?: typeof fetch | undefined;
  /**
   * `true`: allow `http:` URLs on any host; `false`: only `https:`. Default: `http:` on loopback hosts
   * when the MCP server itself is `http:` on one, else only `https:`. Other schemes are always refused
   * in metadata, before anything is fetched or opened.
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * The most bytes read of any response body the client fetches (metadata, registration, tokens);
   * the read is aborted past it. Default `DEFAULT_MAX_RESPONSE_BYTES` (256 KiB).
   */
  maxResponseBytes?: number | undefined;
  /**
   * Origins (`https://meta.example`) besides the MCP server's own whose `resource_metadata` URL, named
   * in a `WWW-Authenticate` challenge, the client fetches. Default none: a challenge pointing at
   * another origin is refused (`discovery_failed`) before anything is fetched from it.
   */
  resourceMetadataOrigins?: readonly string[] | undefined;
  /** Re-authorizations for wider scopes (403 `insufficient_scope`) before giving up. Default {@link DEFAULT_MAX_STEP_UPS} (2). */
  maxStepUps?: number | undefined;
  /**
   * DPoP-bound tokens (RFC 9449): `true` always, `'auto'` when the AS lists ES256 in
   * `dpop_signing_alg_values_supported`. Proofs are per request: `httpAuthOptions(provider)` makes one
   * for each request a transport sends (its `getHeaders` is told the method and URL), and keeps the
   * server's `DPoP-Nonce` from every response (`onResponse`). Default false.
   */
  dpop?: boolean | 'auto' | undefined;
  /** Refresh a token this many seconds before it expires. Default {@link DEFAULT_REFRESH_SKEW_SEC} (60). */
  refreshSkewSec?: number | undefined;
}

const SCHEMES = new Map([
  ['bearer', 'Bearer'],
  ['dpop', 'DPoP'],
]);
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * An OAuth 2.1 client for one MCP server (MCP "Authorization"): discovery (RFC 9728, RFC 8414, OIDC,
 * 2025-03-26 fallbacks), authorization code + PKCE S256 with resource indicators (RFC 8707) and `iss`
 * checking (RFC 9207), client identity by pre-registration, Client ID Metadata Document or Dynamic
 * Client Registration (RFC 7591), scope selection and bounded step-up, refresh (before expiry and on
 * 401, one in flight). Plug it into a transport with `httpAuthOptions(provider)` or `authFetch(provider)`.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({
 *   serverUrl: 'https://mcp.example.com/mcp',
 *   redirectUri: 'http://127.0.0.1:8765/callback',
 *   authorize: async (url) => waitForRedirect(url), // open a browser, catch the redirect
 * });
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', httpAuthOptions(provider));
 * ```
 */
export class OAuthClientProvider {
  readonly #options: OAuthClientProviderOptions;
  readonly #server: URL;
  readonly #key: string;
  readonly #store: TokenStore;
  readonly #fetch: typeof fetch;
  readonly #httpPolicy: HttpPolicy;
  #discovered: Discovered | undefined;
  #dpop: DpopProofs | undefined;
  #inFlight: Promise<void> | undefined;
  #stepUps = 0;
  /** Scopes requested in the last authorization (the base of a step-up union, SEP-2350). */
  #requestedScope: string | undefined;

  constructor(options: OAuthClientProviderOptions) {
    this.#options = options;
    this.#server = new URL(options.serverUrl);
    this.#key = this.#server.href;
    this.#store = options.store ?? new InMemoryTokenStore();
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
      throw new AuthError('invalid_options', 'maxResponseBytes must be a positive integer');
    this.#fetch = cappedFetch(options.fetch ?? ((input, init) => fetch(input, init)), maxBytes);
    this.#httpPolicy =
      options.allowInsecureHttp === true
        ? 'any'
        : options.allowInsecureHttp === false
          ? 'never'
          : this.#server.protocol === 'http:' && isLoopbackHost(this.#server.hostname)
            ? 'loopback'
            : 'never';
    if ((options.grant ?? 'authorization_code') === 'authorization_code' && options.redirectUri === undefined)
      throw new AuthError('invalid_options', 'the authorization code grant needs a redirectUri');
    if (options.grant === 'jwt_bearer' && options.assertion === undefined)
      throw new AuthError('invalid_options', 'the jwt_bearer grant needs an assertion');
  }

  /** The MCP server this provider holds credentials for. */
  get serverUrl(): URL {
    return this.#server;
  }

  /** The current tokens, if any. */
  async tokens(): Promise<StoredTokens | undefined> {
    return (await this.#store.get(this.#key))?.tokens;
  }

  /** Forgets tokens and the client registration for this server (logout). */
  async clear(): Promise<void> {
    await this.#store.delete(this.#key);
  }

  /**
   * The `Authorization` header for the next request; refreshes first when the token expires within
   * `refreshSkewSec`. Empty before the first authorization (the server's 401 starts it).
   */
  getHeaders(): Promise<Record<string, string>> {
    return this.headersFor('POST', this.#server);
  }

  /**
   * The credentials for one request: `Authorization` (and a `DPoP` proof for a DPoP-bound token).
   * Refreshes first when the token expires within `refreshSkewSec`.
   */
  async headersFor(method: string, url: URL): Promise<Record<string, string>> {
    if (this.#inFlight !== undefined) await this.#inFlight.catch(() => {});
    let tokens = await this.tokens();
    if (tokens === undefined) return {};
    const skew = this.#options.refreshSkewSec ?? DEFAULT_REFRESH_SKEW_SEC;
    if (
      tokens.expiresAt !== undefined &&
      tokens.expiresAt - skew <= Date.now() / 1000 &&
      tokens.refreshToken !== undefined
    ) {
      await this.#single(async () => {
        await this.#refresh();
      }).catch(() => {});
      tokens = await this.tokens();
      if (tokens === undefined) return {};
    }
    if (tokens.tokenType.toLowerCase() === 'dpop' && this.#dpop !== undefined)
      return {
        authorization: `DPoP ${tokens.accessToken}`,
        dpop: await this.#dpop.proof(method, url, tokens.accessToken),
      };
    return { authorization: `${tokens.tokenType} ${tokens.accessToken}` };
  }

  /**
   * A 401 from the server: refresh the token, or (re)authorize; true when new credentials are ready.
   * Concurrent 401s share one flow.
   */
  onUnauthorized(response: Response): Promise<boolean> {
    // RFC 9449 §9: a resource server that wants a nonce answers 401 `DPoP error="use_dpop_nonce"`.
    if (
      this.#dpop !== undefined &&
      /\bDPoP\b[\s\S]*error="?use_dpop_nonce/i.test(response.headers.get('www-authenticate') ?? '') &&
      this.#dpop.noteNonce(this.#server, response)
    )
      return Promise.resolve(true);
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    return this.#single(async () => {
      // A PRM that now names another AS invalidates the registration and tokens (SEP-2352).
      this.#discovered = await discover(this.#server, challenge?.resourceMetadata, this.#ctx());
      const state = await this.#store.get(this.#key);
      if (state !== undefined && state.issuer !== this.#discovered.as.issuer)
        await this.#store.delete(this.#key);
      else if (state?.tokens?.refreshToken !== undefined && (await this.#refresh())) return;
      await this.#authorize(challenge, undefined);
    }).then(() => true);
  }

  /**
   * A 403: on `insufficient_scope`, re-authorize for the union of the scopes asked before and the
   * challenge's (MCP "Scope Challenge Handling", SEP-2350), at most `maxStepUps` times in a row.
   */
  onForbidden(response: Response): Promise<boolean> {
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    if (challenge?.error !== 'insufficient_scope') return Promise.resolve(false);
    const max = this.#options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
    if (this.#stepUps >= max)
      return Promise.reject(
        new AuthError(
          'step_up_limit',
          `the server still refuses after ${max} step-up authorizations (maxStepUps)`,
        ),
      );
    this.#stepUps += 1;
    return this.#single(async () => {
      this.#discovered ??= await discover(this.#server, challenge.resourceMetadata, this.#ctx());
      await this.#authorize(challenge, this.#requestedScope);
    }).then(() => true);
  }

  /** A request went through: the step-up budget starts over. */
  noteSuccess(): void {
    this.#stepUps = 0;
  }

  /** Every answer from the server: keeps the DPoP nonce it may carry (RFC 9449 §9). */
  noteResponse(url: URL, response: Response): void {
    this.#dpop?.noteNonce(url, response);
  }

  /** Runs the authorization now (e.g. `x-mcp login`), without waiting for a 401. */
  async login(): Promise<void> {
    await this.#single(async () => {
      this.#discovered = await discover(this.#server, undefined, this.#ctx());
      await this.#authorize(undefined, undefined);
    });
  }

  #single(run: () => Promise<void>): Promise<void> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    const flow = run().finally(() => {
      this.#inFlight = undefined;
    });
    this.#inFlight = flow;
    return flow;
  }

  #ctx(): DiscoveryContext {
    return {
      fetch: this.#fetch,
      http: this.#httpPolicy,
      resourceMetadataOrigins: this.#options.resourceMetadataOrigins,
      maxResponseBytes: this.#options.maxResponseBytes,
    };
  }

  #http(): {
    [oauth.customFetch]: typeof fetch;
    [oauth.allowInsecureRequests]: boolean;
    DPoP?: oauth.DPoPHandle;
  } {
    // Every URL oauth4webapi fetches was checked in discovery (checkMetadataUrls): http: only as allowed.
    const options = {
      [oauth.customFetch]: this.#fetch,
      [oauth.allowInsecureRequests]: this.#httpPolicy !== 'never',
    };
    return this.#dpop === undefined ? options : { ...options, DPoP: this.#dpop.handle };
  }

  async #authorize(challenge: ParsedChallenge | undefined, previousScope: string | undefined): Promise<void> {
    const found = this.#discovered as Discovered;
    const as = found.as;
    const previous = await this.#store.get(this.#key);
    const state: AuthState = previous?.issuer === as.issuer ? previous : { issuer: as.issuer };
    state.client ??= await this.#identify(as);
    await this.#store.set(this.#key, state);
    const dpop = this.#options.dpop ?? false;
    if (
      this.#dpop === undefined &&
      (dpop === true || (dpop === 'auto' && as.dpop_signing_alg_values_supported?.includes('ES256') === true))
    )
      this.#dpop = await DpopProofs.generate(state.client.clientId);
    const scope = this.#selectScope(challenge, found, previousScope);
    this.#requestedScope = scope;
    const grant = this.#options.grant ?? 'authorization_code';
    const tokens =
      grant === 'authorization_code'
        ? await this.#authorizationCode(as, state.client, found, scope)
        : await this.#tokenGrant(grant, as, state.client, found.resource, scope);
    await this.#store.set(this.#key, { ...state, tokens });
  }

  #selectScope(
    challenge: ParsedChallenge | undefined,
    found: Discovered,
    previous: string | undefined,
  ): string | undefined {
    // MCP 2025-11-25 "Scope Selection Strategy": the challenge's scope, else PRM scopes_supported, else omit.
    const base = this.#options.scope ?? challenge?.scope ?? found.scopesSupported?.join(' ');
    const scopes = new Set(
      [...(previous?.split(' ') ?? []), ...(base?.split(' ') ?? [])].filter((s) => s !== ''),
    );
    // SEP-2207: ask for offline_access only when the AS lists it.
    if (
      this.#options.offlineAccess !== false &&
      (this.#options.grant ?? 'authorization_code') === 'authorization_code' &&
      found.as.scopes_supported?.includes('offline_access') === true
    )
      scopes.add('offline_access');
    return scopes.size === 0 ? undefined : [...scopes].join(' ');
  }

  /** Pre-registered client, else a Client ID Metadata Document URL, else Dynamic Client Registration. */
  async #identify(as: oauth.AuthorizationServer): Promise<StoredClient> {
    if (this.#options.client !== undefined) return this.#options.client;
    const metadataUrl = this.#options.clientMetadataUrl;
    if (metadataUrl !== undefined && as['client_id_metadata_document_supported'] === true)
      return {
        clientId: metadataUrl,
        tokenEndpointAuthMethod: this.#options.privateKey ? 'private_key_jwt' : 'none',
      };
    if (as.registration_endpoint === undefined)
      throw new AuthError(
        'registration_failed',
        `${as.issuer} supports neither Dynamic Client Registration nor Client ID Metadata Documents; pass a pre-registered client`,
      );
    const grant = this.#options.grant ?? 'authorization_code';
    const metadata: Record<string, unknown> = {
      client_name: 'x-mcp client',
      grant_types:
        grant === 'authorization_code'
          ? ['authorization_code', 'refresh_token']
          : [grant === 'jwt_bearer' ? JWT_BEARER : grant],
      response_types: grant === 'authorization_code' ? ['code'] : [],
      token_endpoint_auth_method: this.#options.privateKey !== undefined ? 'private_key_jwt' : 'none',
      application_type: applicationTypeOf(this.#options.redirectUri),
      ...this.#options.clientMetadata,
    };
    if (this.#options.redirectUri !== undefined)
      metadata['redirect_uris'] = [String(this.#options.redirectUri)];
    let body: unknown;
    try {
      const response = await oauth.dynamicClientRegistrationRequest(
        as,
        metadata as Partial<oauth.OmitSymbolProperties<oauth.Client>>,
        this.#http(),
      );
      // RFC 7591 §3.2.1 says 201; read the answer leniently (servers in the wild send 200, or
      // null for optional members) but insist on a client_id.
      if (response.status !== 201 && response.status !== 200) {
        await response.body?.cancel();
        throw new AuthError(
          'registration_failed',
          `registration at ${as.issuer} answered ${response.status}`,
        );
      }
      body = await response.json();
    } catch (error) {
      throw toAuthError(error, 'registration_failed', `registration at ${as.issuer}`);
    }
    if (
      typeof body !== 'object' ||
      body === null ||
      typeof (body as { client_id?: unknown }).client_id !== 'string'
    )
      throw new AuthError('registration_failed', `registration at ${as.issuer} returned no client_id`);
    const registered = body as Record<string, unknown>;
    const client: StoredClient = { clientId: registered['client_id'] as string };
    if (typeof registered['client_secret'] === 'string') client.clientSecret = registered['client_secret'];
    if (typeof registered['token_endpoint_auth_method'] === 'string')
      client.tokenEndpointAuthMethod = registered['token_endpoint_auth_method'];
    return client;
  }

  async #authorizationCode(
    as: oauth.AuthorizationServer,
    stored: StoredClient,
    found: Discovered,
    scope: string | undefined,
  ): Promise<StoredTokens> {
    const interact = this.#options.authorize;
    if (interact === undefined)
      throw new AuthError(
        'interaction_required',
        'the server needs user authorization; pass the authorize option',
      );
    // MCP 2025-11-25 "Authorization Code Protection": refuse an AS that does not advertise S256.
    if (!found.legacy && as.code_challenge_methods_supported?.includes('S256') !== true)
      throw new AuthError(
        'invalid_metadata',
        `${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`,
      );
    if (as.authorization_endpoint === undefined)
      throw new AuthError('invalid_metadata', `${as.issuer} has no authorization_endpoint`);
    const redirectUri = String(this.#options.redirectUri);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    // Checked again right before the user is sent there: whatever opens this URL (a browser opener,
    // a shell) must only ever see https: (or http: on loopback).
    const url = checkEndpointUrl(as.authorization_endpoint, 'authorization_endpoint', this.#httpPolicy);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', stored.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('resource', found.resource);
    if (scope !== undefined) url.searchParams.set('scope', scope);
    let callback: URL;
    try {
      callback = new URL(await interact(url));
    } catch (error) {
      throw new AuthError('interaction_required', 'the authorize step gave no callback URL', {
        cause: error,
      });
    }
    const client: oauth.Client = { client_id: stored.clientId };
    const clientAuth = clientAuthFor(as, stored, this.#options.privateKey);
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, state);
    } catch (error) {
      throw toAuthError(error, 'authorization_failed', 'the authorization response');
    }
    try {
      const result = await withDpopNonceRetry(async () => {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth,
          params,
          redirectUri,
          verifier,
          { ...this.#http(), additionalParameters: { resource: found.resource } },
        );
        return oauth.processAuthorizationCodeResponse(as, client, response);
      });
      return tokensOf(result, scope, undefined);
    } catch (error) {
      throw toAuthError(error, 'token_request_failed', 'the authorization code exchange');
    }
  }

  /**
   * Grants without a user: client credentials (RFC 6749 §4.4) or a JWT bearer assertion (RFC 7523).
   * A refused grant is reported, never retried or swapped for another grant (SEP-1933).
   */
  async #tokenGrant(
    grant: 'client_credentials' | 'jwt_bearer',
    as: oauth.AuthorizationServer,
    stored: StoredClient,
    resource: string,
    scope: string | undefined,
  ): Promise<StoredTokens> {
    const client: oauth.Client = { client_id: stored.clientId };
    const parameters: Record<string, string> = { resource };
    if (scope !== undefined) parameters['scope'] = scope;
    const clientAuth = clientAuthFor(as, stored, this.#options.privateKey);
    try {
      if (grant === 'client_credentials') {
        const result = await withDpopNonceRetry(async () => {
          const response = await oauth.clientCredentialsGrantRequest(
            as,
            client,
            clientAuth,
            parameters,
            this.#http(),
          );
          return oauth.processClientCredentialsResponse(as, client, response);
        });
        return tokensOf(result, scope, undefined);
      }
      const source = this.#options.assertion;
      if (source === undefined)
        throw new AuthError('invalid_options', 'the jwt_bearer grant needs an assertion');
      parameters['assertion'] = await source({ issuer: as.issuer, resource, scope });
      const result = await withDpopNonceRetry(async () => {
        const response = await oauth.genericTokenEndpointRequest(
          as,
          client,
          clientAuth,
          JWT_BEARER,
          parameters,
          this.#http(),
        );
        return oauth.processGenericTokenEndpointResponse(as, client, response);
      });
      return tokensOf(result, scope, undefined);
    } catch (error) {
      throw toAuthError(error, 'token_request_failed', `the ${grant} grant`);
    }
  }

  /** Refresh with the stored refresh token; false (tokens dropped) when the AS refuses it. */
  async #refresh(): Promise<boolean> {
    const state = await this.#store.get(this.#key);
    const refreshToken = state?.tokens?.refreshToken;
    if (state === undefined || refreshToken === undefined || state.client === undefined) return false;
    const as =
      this.#discovered?.as.issuer === state.issuer
        ? this.#discovered.as
        : await discoverAuthorizationServer(state.issuer, this.#ctx());
    if (as === undefined) return false;
    const client: oauth.Client = { client_id: state.client.clientId };
    const resource = this.#discovered?.resource ?? this.#server.href;
    try {
      const result = await withDpopNonceRetry(async () => {
        const response = await oauth.refreshTokenGrantRequest(
          as,
          client,
          clientAuthFor(as, state.client as StoredClient, this.#options.privateKey),
          refreshToken,
          { ...this.#http(), additionalParameters: { resource } },
        );
        return oauth.processRefreshTokenResponse(as, client, response);
      });
      await this.#store.set(this.#key, {
        ...state,
        tokens: tokensOf(result, state.tokens?.scope, refreshToken),
      });
      return true;
    } catch (error) {
      // invalid_grant (expired or revoked): start over with a full authorization. invalid_client: the
      // AS no longer knows the registration (deleted, or the AS reset or upgraded), so the authorization
      // would send the user to an error page: forget it too, and that authorization registers anew.
      const forgotten = this.#options.client === undefined && isInvalidClient(error);
      await this.#store.set(
        this.#key,
        forgotten ? { issuer: state.issuer } : { issuer: state.issuer, client: state.client },
      );
      return false;
    }
  }
}

/** An OAuth `invalid_client` answer (RFC 6749 §5.2), in the body or in a `WWW-Authenticate` challenge. */
function isInvalidClient(error: unknown): boolean {
  if (error instanceof oauth.ResponseBodyError) return error.error === 'invalid_client';
  if (error instanceof oauth.WWWAuthenticateChallengeError)
    return error.cause.some((challenge) => challenge.parameters.error === 'invalid_client');
  return false;
}

/**
 * SEP-837 / OIDC Registration §2: `native` for apps that receive the redirect on a loopback address or
 * a private-use URI scheme (CLIs, desktop apps), `web` for an https redirect to a hosted site.
 */
function applicationTypeOf(redirectUri: string | URL | undefined): 'native' | 'web' {
  if (redirectUri === undefined) return 'web';
  const url = new URL(redirectUri);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'native';
  return isLoopbackHost(url.hostname) ? 'native' : 'web';
}

function tokensOf(
  result: oauth.TokenEndpointResponse,
  requestedScope: string | undefined,
  previousRefreshToken: string | undefined,
): StoredTokens {
  const tokens: StoredTokens = {
    accessToken: result.access_token,
    // The schemes are case-insensitive; send them as RFC 6750 and RFC 9449 spell them.
    tokenType: SCHEMES.get(result.token_type.toLowerCase()) ?? result.token_type,
  };
  if (typeof result.expires_in === 'number')
    tokens.expiresAt = Math.floor(Date.now() / 1000) + result.expires_in;
  const refresh = result.refresh_token ?? previousRefreshToken;
  if (refresh !== undefined) tokens.refreshToken = refresh;
  const scope = result.scope ?? requestedScope;
  if (scope !== undefined) tokens.scope = scope;
  return tokens;
}

/**
 * The provider as the HTTP auth options every HTTP-based client transport takes (Streamable HTTP,
 * legacy SSE, the Node WebSocket client's upgrade): `getHeaders(request)` gives the token (and a DPoP
 * proof for that request's method and URL), only for the provider's server origin, so no token leaves
 * for another one; `onUnauthorized` refreshes or (re)authorizes; `onForbidden` steps up on 403
 * `insufficient_scope` (at most `maxStepUps` in a row); `onResponse` keeps the server's `DPoP-Nonce`
 * and, on success, starts the step-up budget over.
 *
 * @example
 * ```ts
 * new StreamableHttpClientTransport(url, httpAuthOptions(provider));
 * new SseClientTransport(sseUrl, httpAuthOptions(provider));
 * new WebSocketClientTransport(wsUrl, httpAuthOptions(provider));
 * ```
 */
export function httpAuthOptions(provider: OAuthClientProvider): HttpClientAuthOptions {
  const server = provider.serverUrl;
  return {
    getHeaders: ({ method, url }) =>
      url.origin === server.origin ? provider.headersFor(method, url) : Promise.resolve({}),
    onUnauthorized: (response) => provider.onUnauthorized(response),
    onForbidden: (response) => provider.onForbidden(response),
    onResponse: (response) => {
      provider.noteResponse(server, response);
      if (response.ok) provider.noteSuccess();
    },
  };
}
