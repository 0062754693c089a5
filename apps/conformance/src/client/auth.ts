import {
  type ClientPrivateKey,
  OAuthClientProvider,
  type OAuthClientProviderOptions,
  tokenExchangeAssertion,
} from '@x/auth';

/** The Client ID Metadata Document URL the suite's mock AS expects (SEP-991); nothing fetches it. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://localhost:3000/callback';

/**
 * Headless consent, as the suite's mocks expect (CONFORMANCE.md §3): GET the authorization URL without
 * following redirects and hand back the `Location` (our redirect URI with `code`, `state`, `iss`).
 */
async function followAuthorizationRedirect(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, url).href;
}

function str(context: Record<string, unknown>, name: string): string | undefined {
  const value = context[name];
  return typeof value === 'string' ? value : undefined;
}

/** PKCS#8 PEM → a signing CryptoKey (the suite hands ES256 keys for private_key_jwt). */
async function importPem(pem: string, algorithm: string): Promise<ClientPrivateKey> {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s+/g, '')), (c) => c.charCodeAt(0));
  const params: EcKeyImportParams | RsaHashedImportParams =
    algorithm === 'RS256'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : { name: 'ECDSA', namedCurve: algorithm === 'ES384' ? 'P-384' : 'P-256' };
  return { key: await crypto.subtle.importKey('pkcs8', der, params, false, ['sign']) };
}

/** The OAuth client provider an `auth/*` scenario runs with (undefined for every other scenario). */
export async function authProviderFor(
  scenario: string,
  url: string,
  context: Record<string, unknown>,
): Promise<OAuthClientProvider | undefined> {
  if (!scenario.startsWith('auth/')) return undefined;
  const options: OAuthClientProviderOptions = {
    serverUrl: url,
    redirectUri: REDIRECT_URI,
    authorize: followAuthorizationRedirect,
    clientMetadataUrl: CIMD_URL,
    clientMetadata: { client_name: 'x-mcp-conformance-client' },
    // DPoP-bound tokens whenever the AS offers them (the dpop scenarios); httpAuthOptions sends the proofs.
    dpop: 'auto',
  };
  const clientId = str(context, 'client_id');
  if (scenario.startsWith('auth/client-credentials-')) {
    options.grant = 'client_credentials';
    delete options.redirectUri;
    const pem = str(context, 'private_key_pem');
    if (pem !== undefined)
      options.privateKey = await importPem(pem, str(context, 'signing_algorithm') ?? 'ES256');
  }
  const workloadJwt = str(context, 'valid_jwt');
  if (scenario === 'auth/wif-jwt-bearer' && workloadJwt !== undefined) {
    // Workload identity (SEP-1933): the platform's JWT is the assertion.
    options.grant = 'jwt_bearer';
    options.assertion = () => workloadJwt;
    delete options.redirectUri;
  }
  const idpEndpoint = str(context, 'idp_token_endpoint');
  const idToken = str(context, 'idp_id_token');
  if (idpEndpoint !== undefined && idToken !== undefined) {
    // Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP → token at the AS.
    options.grant = 'jwt_bearer';
    options.assertion = tokenExchangeAssertion({
      tokenEndpoint: idpEndpoint,
      clientId: str(context, 'idp_client_id') ?? '',
      subjectToken: () => idToken,
    });
    delete options.redirectUri;
  }
  if (clientId !== undefined) {
    options.client = { clientId };
    const secret = str(context, 'client_secret');
    if (secret !== undefined) options.client.clientSecret = secret;
    else if (options.privateKey !== undefined) options.client.tokenEndpointAuthMethod = 'private_key_jwt';
  }
  return new OAuthClientProvider(options);
}
