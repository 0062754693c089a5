// DPoP end to end (RFC 9449): oidc-provider binds the token to the client's key (cnf.jkt), the client
// proves possession on every request (httpAuthOptions), bearerAuth checks each proof.
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearerAuth,
  httpAuthOptions,
  InMemoryTokenStore,
  OAuthClientProvider,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { consentOverHttp } from '@x/test-kit';
import { startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const REDIRECT = 'http://127.0.0.1/callback';
const disposables: AsyncDisposable[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

function initialize(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

describe('DPoP-bound tokens from oidc-provider', () => {
  it('are obtained with a proof, used with a fresh proof per request, and refused without one', async () => {
    const server = await startProtectedMcpServer();
    disposables.push(server);
    const as = await startAuthorizationServer({
      resources: [server.url],
      redirectUris: [REDIRECT],
      dpop: true,
    });
    disposables.push(as);
    server.setAuthenticate(
      bearerAuth({ resource: server.url, authorizationServers: [as.issuer], jwks: `${as.issuer}/jwks` }),
    );
    server.routes.set(
      resourceMetadataUrl(server.url).pathname,
      protectedResourceMetadataHandler({
        resource: server.url,
        authorizationServers: [as.issuer],
        scopesSupported: ['mcp:tools'],
      }),
    );
    const store = new InMemoryTokenStore();
    const provider = new OAuthClientProvider({
      serverUrl: server.url,
      redirectUri: REDIRECT,
      authorize: (url) => consentOverHttp(url, REDIRECT),
      dpop: 'auto',
      store,
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    clients.push(client);
    // The transport's auth options alone: getHeaders is told each request's method and URL, so every
    // request (the POSTs, the legacy GET stream, the DELETE) gets a proof of its own.
    await client.connect(new StreamableHttpClientTransport(server.url, httpAuthOptions(provider)));
    await client.callTool({ name: 'whoami', arguments: {} });
    await client.callTool({ name: 'whoami', arguments: {} });
    const tokens = await store.get(server.url);
    expect(tokens?.tokens?.tokenType).toBe('DPoP');
    const token = tokens?.tokens?.accessToken as string;
    const claims = JSON.parse(atob((token.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/')));
    expect(claims.cnf.jkt).toBeTypeOf('string');

    // The stolen token alone is worthless: as Bearer, as DPoP without a proof, or with a replayed proof.
    expect((await initialize(server.url, { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await initialize(server.url, { authorization: `DPoP ${token}` })).status).toBe(401);
    const headers = await provider.headersFor('POST', new URL(server.url));
    const first = await initialize(server.url, headers);
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const replay = await initialize(server.url, headers);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toContain('already used');
    const otherUrl = await provider.headersFor('POST', new URL(`${server.origin}/elsewhere`));
    expect((await initialize(server.url, otherUrl)).status).toBe(401);
    const otherMethod = await provider.headersFor('GET', new URL(server.url));
    expect((await initialize(server.url, otherMethod)).status).toBe(401);
  });
});
