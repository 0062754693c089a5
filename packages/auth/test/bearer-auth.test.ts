// Resource-server side against a real OpenID provider (oidc-provider, JWT access tokens per resource
// indicator) and a real x-mcp Streamable HTTP server on 127.0.0.1.
//
// MCP 2025-11-25 "Authorization" §Token Handling: "MCP servers MUST validate that access tokens were
// issued specifically for them as the intended audience" and "Invalid or expired tokens MUST receive a
// HTTP 401 response"; RFC 9728 §5.1: the 401 carries `WWW-Authenticate: Bearer resource_metadata=…`.
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  bearerAuth,
  protectedResourceMetadataHandler,
  resourceMetadataUrl,
} from '../src/index.js';
import { startHttpServer } from '@x/test-kit';
import { startAuthorizationServer, type TestAuthorizationServer } from './fixtures/oidc.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './fixtures/mcp-server.js';

const disposables: AsyncDisposable[] = [];
afterEach(async () => {
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

async function setup(
  auth: (as: TestAuthorizationServer, server: ProtectedMcpServer) => Parameters<typeof bearerAuth>[0],
  accessTokenFormat: 'jwt' | 'opaque' = 'jwt',
) {
  const server = await startProtectedMcpServer();
  disposables.push(server);
  const as = await startAuthorizationServer({
    resources: [server.url, 'http://127.0.0.1:1/other'],
    accessTokenFormat,
  });
  disposables.push(as);
  server.setAuthenticate(bearerAuth(auth(as, server)));
  return { server, as };
}

const jwksAuth = (as: TestAuthorizationServer, server: ProtectedMcpServer) => ({
  resource: server.url,
  authorizationServers: [as.issuer],
  jwks: `${as.issuer}/jwks`,
  requiredScopes: ['mcp:tools'],
});

function initialize(url: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

describe('bearerAuth (JWT access tokens from oidc-provider)', () => {
  it('admits a token issued for this resource and hands its AuthInfo on', async () => {
    const { server, as } = await setup(jwksAuth);
    const token = await as.clientCredentialsToken(server.url, 'mcp:tools');
    const response = await initialize(server.url, token);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('answers 401 with the resource_metadata challenge when no token is sent', async () => {
    const { server } = await setup(jwksAuth);
    const response = await initialize(server.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${resourceMetadataUrl(server.url).href}", scope="mcp:tools"`,
    );
  });

  it.each([
    [
      'for another audience',
      async (as: TestAuthorizationServer) =>
        as.clientCredentialsToken('http://127.0.0.1:1/other', 'mcp:tools'),
    ],
    [
      'expired beyond the clock tolerance',
      async (as: TestAuthorizationServer, url: string) =>
        as.sign({ aud: url, scope: 'mcp:tools', client_id: 'x' }, { expiresIn: -120 }),
    ],
    [
      'tampered with',
      async (as: TestAuthorizationServer, url: string) => {
        const token = await as.clientCredentialsToken(url, 'mcp:tools');
        const [h, p, s] = token.split('.') as [string, string, string];
        const claims = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')));
        claims.scope = 'mcp:tools mcp:admin';
        const forged = btoa(JSON.stringify(claims))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
        return `${h}.${forged}.${s}`;
      },
    ],
    [
      'from another issuer',
      async (as: TestAuthorizationServer, url: string) => {
        const token = await as.sign({ aud: url, scope: 'mcp:tools' });
        return token; // signed by the right key but claims `iss` below is replaced
      },
    ],
  ])('refuses a token %s with 401 invalid_token, and the token is not echoed', async (name, make) => {
    const { server, as } = await setup((a, s) =>
      name === 'from another issuer'
        ? { ...jwksAuth(a, s), authorizationServers: ['http://127.0.0.1:1/not-this-as'] }
        : jwksAuth(a, s),
    );
    const token = await make(as, server.url);
    const response = await initialize(server.url, token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+", error="invalid_token"/);
    const body = await response.text();
    expect(body + challenge).not.toContain(token.split('.')[2]);
  });

  it('accepts a token that expired within clockToleranceSec', async () => {
    const { server, as } = await setup((a, s) => ({ ...jwksAuth(a, s), clockToleranceSec: 60 }));
    const token = await as.sign({ aud: server.url, scope: 'mcp:tools', client_id: 'x' }, { expiresIn: -10 });
    const response = await initialize(server.url, token);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('answers 403 insufficient_scope naming the scope the request needs', async () => {
    const { server, as } = await setup(jwksAuth);
    const token = await as.clientCredentialsToken(server.url, 'mcp:admin');
    const response = await initialize(server.url, token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+", error="insufficient_scope", error_description="[^"]*", scope="mcp:admin mcp:tools"$/,
    );
  });

  it('refuses a non-Bearer Authorization header', async () => {
    const { server } = await setup(jwksAuth);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: 'Basic dTpw', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('bearerAuth (introspection, RFC 7662, and a user function)', () => {
  it('admits an active token for this resource and refuses a revoked one', async () => {
    const { server, as } = await setup(
      (a, s) => ({
        resource: s.url,
        authorizationServers: [a.issuer],
        introspection: {
          endpoint: `${a.issuer}/token/introspection`,
          clientId: 'rs',
          clientSecret: 'rs-secret-rs-secret-rs-secret-0123456789',
          // Answers are cached (cache.ttlSec) by default: a revocation would show only after that.
          cache: false,
        },
      }),
      'opaque',
    );
    const token = await as.clientCredentialsToken(server.url, 'mcp:tools');
    const ok = await initialize(server.url, token);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    expect((await initialize(server.url, 'not-a-token-at-all')).status).toBe(401);
    await as.revoke(token);
    const revoked = await initialize(server.url, token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses an active token the AS introspects as issued for another resource', async () => {
    const { server, as } = await setup(
      (a, s) => ({
        resource: s.url,
        authorizationServers: [a.issuer],
        introspection: {
          endpoint: `${a.issuer}/token/introspection`,
          clientId: 'rs',
          clientSecret: 'rs-secret-rs-secret-rs-secret-0123456789',
        },
      }),
      'opaque',
    );
    const token = await as.clientCredentialsToken('http://127.0.0.1:1/other', 'mcp:tools');
    const response = await initialize(server.url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('aud\\" claim is not accepted here');
  });

  it('answers 503 (not 401) when the verifier is unreachable, and reports it', async () => {
    const errors: AuthError[] = [];
    const { server, as } = await setup((a, s) => ({
      ...jwksAuth(a, s),
      jwks: 'http://127.0.0.1:1/jwks',
      onerror: (e: AuthError) => errors.push(e),
    }));
    const token = await as.clientCredentialsToken(server.url, 'mcp:tools');
    const response = await initialize(server.url, token);
    expect(response.status).toBe(503);
    expect(errors[0]?.code).toBe('verifier_unavailable');
  });

  it('answers 503 (not 401 invalid_token) when the key set answers 500 with a cold cache, and reports it', async () => {
    // An identity-provider outage is not a bad token: 401 would make every client drop its tokens.
    await using jwks = await startHttpServer((_req, res) => res.writeHead(500).end('down'));
    const errors: AuthError[] = [];
    const { server, as } = await setup((a, s) => ({
      ...jwksAuth(a, s),
      jwks: `${jwks.url}/jwks`,
      onerror: (e: AuthError) => errors.push(e),
    }));
    const token = await as.clientCredentialsToken(server.url, 'mcp:tools');
    const response = await initialize(server.url, token);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(errors.map((e) => e.code)).toEqual(['verifier_unavailable']);
  });

  it('runs a user verify function', async () => {
    const { server } = await setup((_a, s) => ({
      resource: s.url,
      authorizationServers: ['https://as.example'],
      verify: async (token: string) => {
        if (token !== 'let-me-in') throw new AuthError('invalid_token', 'unknown key');
        return { token, clientId: 'ops', scopes: ['mcp:tools'] };
      },
      requiredScopes: ['mcp:tools'],
    }));
    const ok = await initialize(server.url, 'let-me-in');
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    expect((await initialize(server.url, 'nope')).status).toBe(401);
  });

  it('refuses options with no way (or two ways) to verify tokens', () => {
    expect(() => bearerAuth({ resource: 'https://a.example/mcp', authorizationServers: [] })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
  });
});

describe('bearerAuth limits', () => {
  const base = { resource: 'https://a.example/mcp', authorizationServers: ['https://as.example'] };
  const introspection = { endpoint: 'https://as.example/introspect', clientId: 'rs', clientSecret: 's' };
  const jwks = { keys: [] };
  const auth = (options: Partial<Parameters<typeof bearerAuth>[0]>) => () =>
    bearerAuth({ ...base, ...options });
  it.each([
    ['clockToleranceSec', auth({ jwks, clockToleranceSec: -1 })],
    // bearerAuth hands the key set options on to its JWT verifier (they were dropped before).
    ['jwksMaxBytes', auth({ jwks: 'https://as.example/jwks', jwksMaxBytes: 0 })],
    ['jwksTimeoutMs', auth({ jwks: 'https://as.example/jwks', jwksTimeoutMs: 0 })],
    ['jwksCooldownMs', auth({ jwks: 'https://as.example/jwks', jwksCooldownMs: -1 })],
    ['maxProofsPerKey', auth({ jwks, dpop: { maxProofsPerKey: 0 } })],
    ['maxRememberedProofs', auth({ jwks, dpop: { maxRememberedProofs: Number.NaN } })],
    ['maxAgeSec', auth({ jwks, dpop: { maxAgeSec: -5 } })],
    ['timeoutMs', auth({ introspection: { ...introspection, timeoutMs: 0 } })],
    ['maxResponseBytes', auth({ introspection: { ...introspection, maxResponseBytes: -1 } })],
    ['ttlSec', auth({ introspection: { ...introspection, cache: { ttlSec: Number.POSITIVE_INFINITY } } })],
    ['maxEntries', auth({ introspection: { ...introspection, cache: { maxEntries: 1.5 } } })],
  ])('refuses a bad %s with invalid_options naming it', (name, create) => {
    expect(create).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining(name) }),
    );
  });
});

describe('protectedResourceMetadataHandler (RFC 9728)', () => {
  it('serves the document at the path-inserted well-known URL', async () => {
    const { server, as } = await setup(jwksAuth);
    server.routes.set(
      resourceMetadataUrl(server.url).pathname,
      protectedResourceMetadataHandler({
        resource: server.url,
        authorizationServers: [as.issuer],
        scopesSupported: ['mcp:tools'],
      }),
    );
    const response = await fetch(resourceMetadataUrl(server.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: server.url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
    });
    const post = await fetch(resourceMetadataUrl(server.url), { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
