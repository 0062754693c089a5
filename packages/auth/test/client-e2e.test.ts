// Our client against our protected server, with a real OpenID provider (oidc-provider) as the AS: the
// user's login and consent pages are driven over HTTP (fixtures/consent.ts submits oidc-provider's own
// devInteractions forms). MCP 2025-11-25 "Authorization Flow Steps": 401 → PRM → AS metadata →
// registration → authorization code + PKCE with `resource` → token → retry.
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  authFetch,
  bearerAuth,
  httpAuthOptions,
  InMemoryTokenStore,
  OAuthClientProvider,
  type OAuthClientProviderOptions,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { consentOverHttp, newBrowser } from '@x/test-kit';
import { type ProtectedMcpServer, startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const REDIRECT = 'http://127.0.0.1/callback';
const disposables: AsyncDisposable[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

async function setup() {
  const server = await startProtectedMcpServer();
  disposables.push(server);
  const as = await startAuthorizationServer({ resources: [server.url], redirectUris: [REDIRECT] });
  disposables.push(as);
  const protect = (requiredScopes: string[]) =>
    server.setAuthenticate(
      bearerAuth({
        resource: server.url,
        authorizationServers: [as.issuer],
        jwks: `${as.issuer}/jwks`,
        requiredScopes,
      }),
    );
  protect(['mcp:tools']);
  server.routes.set(
    resourceMetadataUrl(server.url).pathname,
    protectedResourceMetadataHandler({
      resource: server.url,
      authorizationServers: [as.issuer],
      scopesSupported: ['mcp:tools', 'mcp:admin'],
    }),
  );
  // Count what reaches the AS's token endpoint, by grant type.
  const grants: string[] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/token') && typeof init?.body === 'string')
      grants.push(new URLSearchParams(init.body).get('grant_type') ?? '');
    else if (String(input).endsWith('/token') && init?.body instanceof URLSearchParams)
      grants.push(init.body.get('grant_type') ?? '');
    return fetch(input, init);
  };
  const browser = newBrowser();
  const pages = browser.pages;
  const providerOptions = (extra: Partial<OAuthClientProviderOptions> = {}): OAuthClientProviderOptions => ({
    serverUrl: server.url,
    redirectUri: REDIRECT,
    authorize: (url) => consentOverHttp(url, REDIRECT, browser),
    fetch: countingFetch,
    ...extra,
  });
  return { server, as, protect, grants, pages, providerOptions };
}

async function whoami(client: Client): Promise<{ clientId: string; scopes: string[] }> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('whoami answered no text');
  return JSON.parse(first.text);
}

async function connect(
  server: ProtectedMcpServer,
  options: ConstructorParameters<typeof StreamableHttpClientTransport>[1],
) {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHttpClientTransport(server.url, options));
  return client;
}

describe('OAuthClientProvider against oidc-provider and a bearerAuth-protected x-mcp server', () => {
  it('registers, gets the user consent over HTTP, and calls a tool with a token for this resource', async () => {
    const { server, as, pages, grants, providerOptions } = await setup();
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider(providerOptions({ store }));
    const client = await connect(server, httpAuthOptions(provider));
    const me = await whoami(client);
    expect(pages).toEqual(['login', 'consent']);
    expect(grants).toEqual(['authorization_code']);
    expect(me.scopes).toContain('mcp:tools');
    const state = await store.get(server.url);
    expect(state?.issuer).toBe(as.issuer);
    expect(me.clientId).toBe(state?.client?.clientId); // registered by RFC 7591 at oidc-provider
    expect(state?.tokens?.refreshToken).toBeTypeOf('string');
  });

  it('refreshes a token about to expire before using it, and once on a 401', async () => {
    const { server, grants, providerOptions } = await setup();
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider(providerOptions({ store }));
    const client = await connect(server, httpAuthOptions(provider));
    await whoami(client);
    const first = (await store.get(server.url)) as NonNullable<Awaited<ReturnType<typeof store.get>>>;
    // About to expire: refreshed before the request goes out.
    await store.set(server.url, {
      ...first,
      tokens: { ...first.tokens!, expiresAt: Math.floor(Date.now() / 1000) + 5 },
    });
    await whoami(client);
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    // A token the server no longer accepts: the 401 refreshes it, the request is sent again.
    const second = (await store.get(server.url))!;
    expect(second.tokens?.accessToken).not.toBe(first.tokens?.accessToken);
    await store.set(server.url, {
      ...second,
      tokens: { ...second.tokens!, accessToken: `${second.tokens!.accessToken}x` },
    });
    await whoami(client);
    expect(grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
  });

  it('drops a registration the AS no longer knows (invalid_client on refresh) and registers again once', async () => {
    const { server, grants, providerOptions } = await setup();
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider(providerOptions({ store }));
    const client = await connect(server, httpAuthOptions(provider));
    await whoami(client);
    const first = (await store.get(server.url)) as NonNullable<Awaited<ReturnType<typeof store.get>>>;
    // An AS upgraded or reset since: it refuses the refresh with invalid_client. Kept, the
    // registration would send the user to the AS's error page for an unknown client.
    await store.set(server.url, {
      ...first,
      client: { ...first.client!, clientId: 'forgotten-by-the-as' },
      tokens: { ...first.tokens!, expiresAt: Math.floor(Date.now() / 1000) - 60 },
    });
    await whoami(client);
    const after = (await store.get(server.url))!;
    expect(after.client?.clientId).not.toBe('forgotten-by-the-as');
    expect(after.client?.clientId).not.toBe(first.client?.clientId);
    expect(grants).toEqual(['authorization_code', 'refresh_token', 'authorization_code']);
  });

  it('shares one refresh among concurrent requests', async () => {
    const { server, grants, providerOptions } = await setup();
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider(providerOptions({ store }));
    const client = await connect(server, httpAuthOptions(provider));
    await whoami(client);
    const state = (await store.get(server.url))!;
    await store.set(server.url, { ...state, tokens: { ...state.tokens!, expiresAt: 0 } });
    await Promise.all([whoami(client), whoami(client), whoami(client)]);
    expect(grants.filter((g) => g === 'refresh_token')).toHaveLength(1);
  });

  it('steps up to a wider scope on 403 insufficient_scope, keeping the scopes it had', async () => {
    const { server, protect, pages, providerOptions } = await setup();
    const provider = new OAuthClientProvider(providerOptions());
    // The transport's own onForbidden hook, no authFetch.
    const client = await connect(server, httpAuthOptions(provider));
    expect((await whoami(client)).scopes).not.toContain('mcp:admin');
    protect(['mcp:tools', 'mcp:admin']);
    const me = await whoami(client);
    expect(me.scopes).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
    expect(pages).toEqual(['login', 'consent', 'consent']); // the session stays; only the new scope is asked
  });

  it('steps up when one tool needs more: McpServer requiredScopes answered 403 insufficient_scope by the HTTP handler', async () => {
    // Spec basic/authorization "Runtime Insufficient Scope Errors": 403 with error="insufficient_scope",
    // scope="…" and resource_metadata; "Step-Up Authorization Flow": the client re-authorizes with the
    // union of its scopes and the challenge's, then retries the original request.
    const { server, pages, providerOptions } = await setup();
    const provider = new OAuthClientProvider(providerOptions());
    const forbidden: string[] = [];
    const options = httpAuthOptions(provider);
    const client = await connect(server, {
      ...options,
      onForbidden: (response) => {
        forbidden.push(response.headers.get('www-authenticate') ?? '');
        return options.onForbidden!(response);
      },
    });
    expect((await whoami(client)).scopes).not.toContain('mcp:admin'); // every-request scope: mcp:tools only
    const result = await client.callTool({ name: 'admin-whoami', arguments: {} });
    const first = result.content[0];
    expect(first?.type === 'text' ? JSON.parse(first.text).scopes : []).toEqual(
      expect.arrayContaining(['mcp:tools', 'mcp:admin']),
    );
    expect(forbidden).toHaveLength(1);
    expect(forbidden[0]).toContain('error="insufficient_scope"');
    expect(forbidden[0]).toContain('scope="mcp:admin"');
    expect(forbidden[0]).toContain(`resource_metadata="${resourceMetadataUrl(server.url).href}"`);
    expect(pages).toEqual(['login', 'consent', 'consent']);
    expect((await whoami(client)).scopes).toContain('mcp:admin'); // the wider token stays
  });

  it('gives up after maxStepUps with a typed error', async () => {
    const { server, protect, providerOptions } = await setup();
    const provider = new OAuthClientProvider(providerOptions({ maxStepUps: 1 }));
    const client = await connect(server, httpAuthOptions(provider));
    await whoami(client);
    protect(['mcp:tools', 'mcp:unknown']); // a scope the AS never grants
    await expect(whoami(client)).rejects.toThrow();
    await expect(
      provider.onForbidden(
        new Response(null, {
          status: 403,
          headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:unknown"' },
        }),
      ),
    ).rejects.toMatchObject({ code: 'step_up_limit' });
  });
});

describe('OAuthClientProvider refuses hostile answers without leaking secrets', () => {
  it('a mix-up (the redirect names another issuer) ends with issuer_mismatch and no token request', async () => {
    const { grants, providerOptions } = await setup();
    const provider = new OAuthClientProvider(
      providerOptions({
        authorize: async (url) => {
          const callback = new URL(await consentOverHttp(url, REDIRECT));
          callback.searchParams.set('iss', 'https://attacker.example');
          return callback;
        },
      }),
    );
    const error = await provider.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('issuer_mismatch');
    expect(grants).toEqual([]);
  });

  it('a refused code gives token_request_failed, and neither the code nor the verifier appear in the error', async () => {
    const { providerOptions } = await setup();
    let code = '';
    const provider = new OAuthClientProvider(
      providerOptions({
        authorize: async (url) => {
          const callback = new URL(await consentOverHttp(url, REDIRECT));
          code = `${callback.searchParams.get('code')}tampered`;
          callback.searchParams.set('code', code);
          return callback;
        },
      }),
    );
    const error = (await provider.login().catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe('token_request_failed');
    const printed = `${error.message} ${String(error.cause)} ${JSON.stringify(error)} ${error.stack}`;
    expect(printed).not.toContain(code);
    expect(printed).toMatch(/invalid_grant/);
  });

  it('no token is sent to another origin through authFetch', async () => {
    const { server, providerOptions } = await setup();
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider(providerOptions({ store }));
    await provider.login();
    const seen: (string | null)[] = [];
    const wrapped = authFetch(provider, async (_url, init) => {
      seen.push(new Headers(init.headers).get('authorization'));
      return new Response('{}', { status: 200 });
    });
    await wrapped(`${server.origin}/mcp`, { method: 'POST' });
    await wrapped('http://127.0.0.1:1/elsewhere', { method: 'POST' });
    expect(seen[0]).toMatch(/^Bearer /);
    expect(seen[1]).toBeNull();
  });
});
