// x-mcp client (OAuthClientProvider) ↔ x-mcp WebSocket server protected by bearerAuth, with oidc-provider
// as the authorization server: the token rides on the upgrade request, the listener's `authenticate`
// answers a tokenless upgrade with 401 + `WWW-Authenticate: Bearer resource_metadata=…`, the client's
// `onUnauthorized` runs discovery, registration and the consent over HTTP, then upgrades again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@x/client';
import { McpServer } from '@x/server';
import { WebSocketClientTransport } from '@x/transport-ws';
import { createWebSocketHandler } from '@x/transport-ws/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearerAuth,
  httpAuthOptions,
  InMemoryTokenStore,
  OAuthClientProvider,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { consentOverHttp, newBrowser } from '@x/test-kit';
import { startAuthorizationServer } from './fixtures/oidc.js';

const REDIRECT = 'http://127.0.0.1/callback';
const disposables: AsyncDisposable[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

/** An HTTP server serving the PRM, with a WebSocket handler on `/mcp` whose `whoami` echoes AuthInfo. */
async function startProtectedWebSocketServer() {
  const mcp = new McpServer({ name: 'protected-ws', version: '1.0.0' });
  mcp.registerTool('whoami', { description: 'who is calling' }, async (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify({ scopes: ctx.authInfo?.scopes }) }],
  }));
  let prm: (request: Request) => Response = () => new Response(null, { status: 404 });
  const http: Server = createServer((req, res) => {
    const response = prm(new Request(new URL(req.url ?? '/', `http://${req.headers.host}`)));
    void response
      .text()
      .then((body) => res.writeHead(response.status, Object.fromEntries(response.headers)).end(body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  let authenticate: ReturnType<typeof bearerAuth> = () => new Response(null, { status: 500 });
  const listener = createWebSocketHandler({
    server: http,
    path: '/mcp',
    authenticate: (request) => authenticate(request),
    onsession: (transport) => mcp.connect(transport),
  });
  disposables.push({
    async [Symbol.asyncDispose]() {
      await listener.close();
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
  return {
    /** The protected resource, as the token's audience names it (the upgrade's HTTP target URI). */
    resource: `${origin}/mcp`,
    wsUrl: `${origin.replace(/^http/, 'ws')}/mcp`,
    protect(hook: ReturnType<typeof bearerAuth>, metadata: (request: Request) => Response) {
      authenticate = hook;
      prm = (request) =>
        new URL(request.url).pathname === resourceMetadataUrl(`${origin}/mcp`).pathname
          ? metadata(request)
          : new Response(null, { status: 404 });
    },
  };
}

describe('WebSocket: OAuthClientProvider ↔ bearerAuth-protected WebSocket handler', () => {
  it.each([
    ['Bearer', false],
    ['DPoP', true],
  ] as const)(
    '%s token: 401 at the handshake runs the flow, then the upgrade carries the token',
    async (_name, dpop) => {
      const server = await startProtectedWebSocketServer();
      const as = await startAuthorizationServer({
        resources: [server.resource],
        redirectUris: [REDIRECT],
        dpop,
      });
      disposables.push(as);
      server.protect(
        bearerAuth({
          resource: server.resource,
          authorizationServers: [as.issuer],
          jwks: `${as.issuer}/jwks`,
          requiredScopes: ['mcp:tools'],
        }),
        protectedResourceMetadataHandler({
          resource: server.resource,
          authorizationServers: [as.issuer],
          scopesSupported: ['mcp:tools'],
        }),
      );
      const browser = newBrowser();
      const store = new InMemoryTokenStore();
      const provider = new OAuthClientProvider({
        serverUrl: server.resource,
        redirectUri: REDIRECT,
        authorize: (url) => consentOverHttp(url, REDIRECT, browser),
        dpop: dpop ? 'auto' : false,
        store,
      });
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      clients.push(client);
      await client.connect(
        new WebSocketClientTransport(server.wsUrl, { ...httpAuthOptions(provider), keepAliveMs: 0 }),
      );
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const first = result.content[0];
      expect(first?.type === 'text' ? JSON.parse(first.text).scopes : []).toContain('mcp:tools');
      expect(browser.pages).toEqual(['login', 'consent']);
      expect((await store.get(server.resource))?.tokens?.tokenType).toBe(dpop ? 'DPoP' : 'Bearer');
    },
  );
});
