// Interop with the official TypeScript SDK (1.32.2), oidc-provider as the AS for both directions:
// the official client (its own OAuth code) against our bearerAuth-protected server, and our client
// against the official SDK's requireBearerAuth-protected server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearerAuth,
  httpAuthOptions,
  OAuthClientProvider,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { consentOverHttp } from '@x/test-kit';
import { startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const REDIRECT = 'http://127.0.0.1/callback';
const disposables: AsyncDisposable[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

describe('interop with the official SDK', () => {
  it('the official client authorizes against our protected server and calls a tool', async () => {
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
      protectedResourceMetadataHandler({
        resource: server.url,
        authorizationServers: [as.issuer],
        scopesSupported: ['mcp:tools'],
      }),
    );
    let client: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    let code = '';
    const authProvider = {
      redirectUrl: REDIRECT,
      clientMetadata: {
        client_name: 'official sdk client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => client,
      saveClientInformation: (info: OAuthClientInformationMixed) => {
        client = info;
      },
      tokens: () => tokens,
      saveTokens: (t: OAuthTokens) => {
        tokens = t;
      },
      redirectToAuthorization: async (url: URL) => {
        code = new URL(await consentOverHttp(url, REDIRECT)).searchParams.get('code') ?? '';
      },
      saveCodeVerifier: (v: string) => {
        verifier = v;
      },
      codeVerifier: () => verifier,
    };
    // The SDK's flow: connect → 401 → its OAuth up to the redirect → UnauthorizedError; finishAuth(code); connect again.
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider });
    const sdk = new SdkClient({ name: 'official', version: '1.0.0' });
    await expect(sdk.connect(first)).rejects.toThrow(/Unauthorized/);
    await first.finishAuth(code);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider });
    const connected = new SdkClient({ name: 'official', version: '1.0.0' });
    await connected.connect(transport);
    closers.push(() => connected.close());
    const result = await connected.callTool({ name: 'whoami', arguments: {} });
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    expect(JSON.parse(text).scopes).toContain('mcp:tools');
  });

  it('our client authorizes against the official SDK requireBearerAuth server and calls a tool', async () => {
    const resources: string[] = [];
    const as = await startAuthorizationServer({ resources, redirectUris: [REDIRECT] });
    disposables.push(as);
    // The official server runs as a real child process (express is not loaded into the test runner).
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./fixtures/official-server.mjs', import.meta.url))],
      {
        env: { ...process.env, AS_ISSUER: as.issuer },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    closers.push(async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    });
    const [line] = (await once(
      createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }),
      'line',
    )) as [string];
    const url = line.trim();
    resources.push(url);
    const provider = new OAuthClientProvider({
      serverUrl: url,
      redirectUri: REDIRECT,
      authorize: (u) => consentOverHttp(u, REDIRECT),
    });
    const client = new Client({ name: 'x-mcp', version: '1.0.0' }, { protocolVersion: 'legacy' });
    await client.connect(
      new StreamableHttpClientTransport(url, { ...httpAuthOptions(provider), standaloneStream: false }),
    );
    closers.unshift(() => client.close());
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const first = result.content[0];
    expect(first?.type === 'text' ? JSON.parse(first.text).scopes : []).toContain('mcp:tools');
  });
});
