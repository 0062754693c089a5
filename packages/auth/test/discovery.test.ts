// Hostile and malformed metadata (MCP "Authorization Server Discovery", RFC 9728 §3.3, RFC 8414 §3.3):
// each gets a typed AuthError, and the provider never gets as far as sending a token anywhere.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, OAuthClientProvider } from '../src/index.js';
import { discover } from '../src/client/discovery.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

type Route = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

async function serve(routes: Record<string, Route>): Promise<string> {
  let origin = '';
  server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', origin).pathname];
    if (route === undefined) {
      res.writeHead(404).end();
      return;
    }
    route(req, res, origin);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

const json =
  (body: unknown): Route =>
  (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const ctx = { fetch: (u: string | URL | Request, i?: RequestInit) => fetch(u, i), http: 'loopback' as const };

async function failure(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe('discovery', () => {
  it('tries the path-inserted PRM, then the root one, then finds AS metadata via OIDC for a path issuer', async () => {
    const seen: string[] = [];
    const origin = await serve({
      '/.well-known/oauth-protected-resource': (req, res, o) => {
        seen.push(req.url ?? '');
        json({ resource: `${o}/mcp`, authorization_servers: [`${o}/tenant`], scopes_supported: ['x'] })(
          req,
          res,
          o,
        );
      },
      '/tenant/.well-known/openid-configuration': (req, res, o) => {
        seen.push(req.url ?? '');
        json({ issuer: `${o}/tenant`, authorization_endpoint: `${o}/a`, token_endpoint: `${o}/t` })(
          req,
          res,
          o,
        );
      },
    });
    const found = await discover(new URL(`${origin}/mcp`), undefined, ctx);
    expect(found.resource).toBe(`${origin}/mcp`);
    expect(found.scopesSupported).toEqual(['x']);
    expect(found.as.issuer).toBe(`${origin}/tenant`);
    expect(seen).toEqual([
      '/.well-known/oauth-protected-resource',
      '/tenant/.well-known/openid-configuration',
    ]);
  });

  it('refuses a PRM whose resource is another server (resource_mismatch)', async () => {
    const origin = await serve({
      '/.well-known/oauth-protected-resource/mcp': json({
        resource: 'https://evil.example/mcp',
        authorization_servers: ['https://evil.example'],
      }),
    });
    expect((await failure(discover(new URL(`${origin}/mcp`), undefined, ctx))).code).toBe(
      'resource_mismatch',
    );
  });

  it('refuses AS metadata that names another issuer (mix-up, RFC 8414 §3.3)', async () => {
    const origin = await serve({
      '/.well-known/oauth-protected-resource/mcp': (req, res, o) =>
        json({ resource: `${o}/mcp`, authorization_servers: [o] })(req, res, o),
      '/.well-known/oauth-authorization-server': json({
        issuer: 'https://other.example',
        authorization_endpoint: 'https://other.example/a',
        token_endpoint: 'https://other.example/t',
      }),
    });
    const error = await failure(discover(new URL(`${origin}/mcp`), undefined, ctx));
    expect(error.code).toBe('invalid_metadata');
  });

  it.each([
    ['not JSON', '{"resource": '],
    ['an array', '[1,2]'],
    ['no authorization_servers', '{"resource":"__SELF__"}'],
  ])('refuses a PRM that is %s with invalid_metadata', async (_name, body) => {
    const origin = await serve({
      '/.well-known/oauth-protected-resource/mcp': (req, res, o) =>
        json(body.replace('__SELF__', `${o}/mcp`))(req, res, o),
    });
    expect((await failure(discover(new URL(`${origin}/mcp`), undefined, ctx))).code).toBe('invalid_metadata');
  });

  it('refuses http metadata URLs unless allowed, and the provider allows them only for a loopback server', async () => {
    const error = await failure(
      discover(new URL('http://mcp.example.com/mcp'), undefined, { ...ctx, http: 'never' as const }),
    );
    expect(error.code).toBe('discovery_failed');
    const provider = new OAuthClientProvider({
      serverUrl: 'http://mcp.example.com/mcp',
      redirectUri: 'http://127.0.0.1/cb',
      fetch: async () => {
        throw new Error('must not be reached');
      },
    });
    const refused = await failure(provider.login());
    expect(refused.code).toBe('discovery_failed');
    expect(refused.message).toMatch(/refusing to fetch metadata over http:/);
  });

  it('refuses an AS that does not advertise PKCE S256', async () => {
    const origin = await serve({
      '/.well-known/oauth-protected-resource/mcp': (req, res, o) =>
        json({ resource: `${o}/mcp`, authorization_servers: [o] })(req, res, o),
      '/.well-known/oauth-authorization-server': (req, res, o) =>
        json({
          issuer: o,
          authorization_endpoint: `${o}/a`,
          token_endpoint: `${o}/t`,
          code_challenge_methods_supported: ['plain'],
        })(req, res, o),
    });
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1/cb',
      client: { clientId: 'c' },
      authorize: async () => {
        throw new Error('must not be reached');
      },
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('invalid_metadata');
    expect(error.message).toMatch(/S256/);
  });
});
