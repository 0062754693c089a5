// The same provider over both Streamable HTTP eras and the legacy HTTP+SSE transport, through the
// transports' own auth hooks (`httpAuthOptions`: getHeaders + onUnauthorized), against oidc-provider.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type VersionSelection } from '@x/client';
import { McpServer } from '@x/server';
import { createSseHandler, SseClientTransport } from '@x/transport-sse';
import { toNodeHandler } from '@x/transport-sse/node';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearerAuth,
  httpAuthOptions,
  OAuthClientProvider,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { consentOverHttp, newBrowser } from '@x/test-kit';
import { startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const REDIRECT = 'http://127.0.0.1/callback';
const disposables: AsyncDisposable[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

function whoamiServer(): McpServer {
  const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
  mcp.registerTool('whoami', { description: 'who is calling' }, async (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify({ scopes: ctx.authInfo?.scopes }) }],
  }));
  return mcp;
}

async function scopesSeen(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  const first = result.content[0];
  return first?.type === 'text' ? JSON.parse(first.text).scopes : [];
}

describe('httpAuthOptions over each HTTP transport', () => {
  it.each(['legacy', 'modern'] as const)('Streamable HTTP, %s era', async (era: VersionSelection) => {
    const server = await startProtectedMcpServer();
    disposables.push(server);
    const as = await startAuthorizationServer({ resources: [server.url], redirectUris: [REDIRECT] });
    disposables.push(as);
    server.setAuthenticate(
      bearerAuth({
        resource: server.url,
        authorizationServers: [as.issuer],
        jwks: `${as.issuer}/jwks`,
        requiredScopes: ['mcp:tools'],
      }),
    );
    server.routes.set(
      resourceMetadataUrl(server.url).pathname,
      protectedResourceMetadataHandler({ resource: server.url, authorizationServers: [as.issuer] }),
    );
    const browser = newBrowser();
    const provider = new OAuthClientProvider({
      serverUrl: server.url,
      redirectUri: REDIRECT,
      authorize: (url) => consentOverHttp(url, REDIRECT, browser),
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' }, { protocolVersion: era });
    clients.push(client);
    await client.connect(new StreamableHttpClientTransport(server.url, httpAuthOptions(provider)));
    expect(await scopesSeen(client)).toContain('mcp:tools');
    expect(browser.pages).toEqual(['login', 'consent']);
  });

  it('legacy HTTP+SSE (the GET stream and the POSTs carry the token)', async () => {
    const mcp = whoamiServer();
    let authenticate: ReturnType<typeof bearerAuth> = () => undefined;
    let prm: (request: Request) => Response = () => new Response(null, { status: 404 });
    const sse = createSseHandler({
      onsession: (transport) => mcp.connect(transport),
      authenticate: (r) => authenticate(r),
    });
    const handler = toNodeHandler(sse);
    // The PRM is a Web handler too; everything else goes to the SSE server's Node adapter.
    const http: Server = createServer((req, res) => {
      if (!(req.url ?? '').startsWith('/.well-known/')) return void handler(req, res);
      const response = prm(new Request(new URL(req.url ?? '/', `http://${req.headers.host}`)));
      void response
        .text()
        .then((body) => res.writeHead(response.status, Object.fromEntries(response.headers)).end(body));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    disposables.push({
      async [Symbol.asyncDispose]() {
        await mcp.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    });
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`;
    const as = await startAuthorizationServer({ resources: [url], redirectUris: [REDIRECT] });
    disposables.push(as);
    authenticate = bearerAuth({
      resource: url,
      authorizationServers: [as.issuer],
      jwks: `${as.issuer}/jwks`,
    });
    prm = protectedResourceMetadataHandler({
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: ['mcp:tools'],
    });
    const provider = new OAuthClientProvider({
      serverUrl: url,
      redirectUri: REDIRECT,
      authorize: (u) => consentOverHttp(u, REDIRECT),
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' }, { protocolVersion: 'legacy' });
    clients.push(client);
    // The same options as every HTTP client transport.
    await client.connect(new SseClientTransport(url, httpAuthOptions(provider)));
    expect(await scopesSeen(client)).toContain('mcp:tools');
  });
});
