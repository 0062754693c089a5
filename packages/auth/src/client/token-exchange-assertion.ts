import { AuthError } from '../auth-error.js';
import type { AssertionSource } from './assertion-source.js';
import { cappedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './capped-fetch.js';

/** Options of `tokenExchangeAssertion`. */
export interface TokenExchangeAssertionOptions {
  /** The enterprise IdP's token endpoint. */
  tokenEndpoint: string | URL;
  /** This client at the IdP. */
  clientId: string;
  /** Sent as `client_secret_basic` when given; else `client_id` goes in the body (public client). */
  clientSecret?: string | undefined;
  /** The user's ID token from the IdP (or any subject token, see `subjectTokenType`). */
  subjectToken: () => string | Promise<string>;
  /** Default `urn:ietf:params:oauth:token-type:id_token`. */
  subjectTokenType?: string | undefined;
  fetch?: typeof fetch | undefined;
  /** The most bytes read of the IdP's answer. Default `DEFAULT_MAX_RESPONSE_BYTES` (256 KiB). */
  maxResponseBytes?: number | undefined;
}

const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/**
 * Enterprise-managed authorization (SEP-990): exchanges the user's IdP token for an Identity
 * Assertion JWT Authorization Grant (ID-JAG) at the IdP (RFC 8693 token exchange, audience = the MCP
 * server's AS, resource = the MCP server); use it as the `assertion` of a `jwt_bearer` provider.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({
 *   serverUrl, grant: 'jwt_bearer', client: { clientId: 'app', clientSecret },
 *   assertion: tokenExchangeAssertion({ tokenEndpoint: 'https://idp.example/token', clientId: 'app-at-idp', subjectToken: () => idToken }),
 * });
 * ```
 */
export function tokenExchangeAssertion(options: TokenExchangeAssertionOptions): AssertionSource {
  const fetchImpl = cappedFetch(
    options.fetch ?? ((input, init) => fetch(input, init)),
    options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  );
  return async ({ issuer, resource, scope }) => {
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: ID_JAG,
      subject_token: await options.subjectToken(),
      subject_token_type: options.subjectTokenType ?? 'urn:ietf:params:oauth:token-type:id_token',
      audience: issuer,
      resource,
    });
    if (scope !== undefined) body.set('scope', scope);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (options.clientSecret === undefined) body.set('client_id', options.clientId);
    else {
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
      headers['authorization'] =
        `Basic ${btoa(`${encode(options.clientId)}:${encode(options.clientSecret)}`)}`;
    }
    let answer: Record<string, unknown>;
    let status: number;
    try {
      const response = await fetchImpl(options.tokenEndpoint, {
        method: 'POST',
        headers,
        body: body.toString(),
      });
      status = response.status;
      const parsed: unknown = await response.json();
      answer = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new AuthError('token_request_failed', 'the token exchange at the IdP failed', { cause: error });
    }
    const token = answer['access_token'];
    if (status !== 200 || typeof token !== 'string') {
      const code =
        typeof answer['error'] === 'string' && /^[\w.-]{1,64}$/.test(answer['error'])
          ? answer['error']
          : 'no token';
      throw new AuthError('token_request_failed', `the IdP refused the token exchange (${status} ${code})`);
    }
    if (answer['issued_token_type'] !== undefined && answer['issued_token_type'] !== ID_JAG)
      throw new AuthError('token_request_failed', 'the IdP issued another token type than an ID-JAG');
    return token;
  };
}
