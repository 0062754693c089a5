// RFC 8252 §7.3: a native client receives the redirect on a loopback port; here the "browser" is the
// consent driver, which then follows the final redirect to that port as a browser would.
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  OAuthClientProvider,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { startLoopbackRedirect } from '../src/node/index.js';
import { consentOverHttp } from '@x/test-kit';
import { startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const disposables: AsyncDisposable[] = [];
afterEach(async () => {
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

describe('startLoopbackRedirect', () => {
  it('catches the redirect on 127.0.0.1 and completes the authorization with it', async () => {
    const server = await startProtectedMcpServer();
    disposables.push(server);
    let redirectUri = '';
    const browserPages: number[] = [];
    const loopback = await startLoopbackRedirect({
      openUrl: async (url) => {
        // The user's browser: the consent pages, then the redirect to our loopback port.
        const callback = await consentOverHttp(url, redirectUri);
        const page = await fetch(callback);
        browserPages.push(page.status);
        await page.text();
      },
    });
    disposables.push(loopback);
    redirectUri = loopback.redirectUri;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const as = await startAuthorizationServer({ resources: [server.url] });
    disposables.push(as);
    server.routes.set(
      resourceMetadataUrl(server.url).pathname,
      protectedResourceMetadataHandler({
        resource: server.url,
        authorizationServers: [as.issuer],
        scopesSupported: ['mcp:tools'],
      }),
    );
    const provider = new OAuthClientProvider({
      serverUrl: server.url,
      redirectUri,
      authorize: loopback.authorize,
    });
    await provider.login(); // DCR registers the loopback redirect URI, then the code flow runs through it
    expect((await provider.tokens())?.accessToken).toBeTypeOf('string');
    expect(browserPages).toEqual([200]);
    // Stray requests (no pending state) get 404.
    expect((await fetch(`${redirectUri}?state=unknown&code=x`)).status).toBe(404);
  });

  it('gives up after timeoutMs with interaction_required', async () => {
    const loopback = await startLoopbackRedirect({ openUrl: () => {}, timeoutMs: 50 });
    disposables.push(loopback);
    const error = await loopback
      .authorize(new URL('https://as.example/auth?state=s'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('interaction_required');
    expect((error as AuthError).message).toMatch(/timeoutMs/);
  });
});
