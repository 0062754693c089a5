// What a hostile MCP or authorization server can make the OAuth client do (issue #35, findings 2 and 7):
// metadata naming a non-https endpoint is refused before anything is fetched or opened; every JSON the
// client reads is streamed with a byte cap, so a 64 MB body is cut off near the cap (the server sees
// the client hang up); a challenge's resource_metadata on another origin is not fetched unless allowed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  DEFAULT_MAX_RESPONSE_BYTES,
  OAuthClientProvider,
  tokenExchangeAssertion,
} from '../src/index.js';
import { startLoopbackRedirect } from '../src/node/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

type Route = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

async function serve(routes: Record<string, Route>): Promise<{ origin: string; seen: string[] }> {
  let origin = '';
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const route = routes[new URL(req.url ?? '/', origin).pathname];
    if (route === undefined) res.writeHead(404).end();
    else route(req, res, origin);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen };
}

const json =
  (body: (origin: string) => unknown): Route =>
  (_req, res, origin) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body(origin)));
  };

/** The PRM and AS metadata of a server whose AS is itself, with `as` merged into the AS metadata. */
function metadata(as: (origin: string) => Record<string, unknown>): Record<string, Route> {
  return {
    '/.well-known/oauth-protected-resource/mcp': json((o) => ({
      resource: `${o}/mcp`,
      authorization_servers: [o],
    })),
    '/.well-known/oauth-authorization-server': json((o) => ({
      issuer: o,
      authorization_endpoint: `${o}/authorize`,
      token_endpoint: `${o}/token`,
      registration_endpoint: `${o}/register`,
      code_challenge_methods_supported: ['S256'],
      ...as(o),
    })),
  };
}

async function failure(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

/**
 * A body of `total` bytes written with backpressure (a write waits for 'drain'), so the count of bytes
 * written is what the client read plus what the sockets buffer. Resolves when the response closes.
 */
function hugeBody(total: number, headers: Record<string, string> = {}) {
  let onClose: () => void = () => {};
  const result = { written: 0, finished: false, closed: new Promise<void>((resolve) => (onClose = resolve)) };
  const route: Route = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.on('close', () => {
      result.finished = res.writableFinished;
      onClose();
    });
    const pump = (): void => {
      while (result.written < total && !res.destroyed) {
        result.written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (result.written >= total) res.end();
    };
    pump();
  };
  return { route, result };
}

const SIXTY_FOUR_MB = 64 * 1024 * 1024;

describe('endpoint URLs in metadata (finding 2)', () => {
  it.each([
    ['authorization_endpoint', 'file:///etc/passwd?'],
    ['authorization_endpoint', 'x-unknown-handler://run?x=1'],
    ['authorization_endpoint', 'javascript:alert(1)'],
    ['authorization_endpoint', 'http://evil.example/authorize'],
    ['token_endpoint', 'file:///tmp/token'],
    ['registration_endpoint', 'ftp://127.0.0.1/register'],
    ['jwks_uri', 'x-custom:keys'],
  ])('refuses %s %s before the user is sent anywhere or anything is fetched', async (name, value) => {
    const { origin, seen } = await serve(metadata(() => ({ [name]: value })));
    const authorize = vi.fn(async () => `${origin}/never`);
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize,
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('invalid_metadata');
    expect(error.message).toContain(name);
    expect(authorize).not.toHaveBeenCalled();
    // Only the two metadata documents were read: no registration, no token request.
    expect(seen).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
    ]);
  });

  it('refuses a PRM naming a non-https authorization server', async () => {
    const { origin } = await serve({
      '/.well-known/oauth-protected-resource/mcp': json((o) => ({
        resource: `${o}/mcp`,
        authorization_servers: ['file:///etc'],
      })),
    });
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('invalid_metadata');
    expect(error.message).toContain('authorization_servers');
  });

  it('the default accepts http: on any loopback host (127.0.0.2), as RFC 8252 §7.3 allows', async () => {
    const { origin } = await serve(
      metadata(() => ({ authorization_endpoint: 'http://127.0.0.2:1/authorize' })),
    );
    const opened: URL[] = [];
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      client: { clientId: 'c' },
      authorize: async (url) => {
        opened.push(url);
        throw new Error('stop here');
      },
    });
    expect((await failure(provider.login())).code).toBe('interaction_required');
    expect(opened[0]?.origin).toBe('http://127.0.0.2:1');
  });
});

it('treats a member sent as null as absent (lenient servers), not as a bad URL', async () => {
  const { origin } = await serve(metadata(() => ({ registration_endpoint: null, jwks_uri: null })));
  const opened: URL[] = [];
  const provider = new OAuthClientProvider({
    serverUrl: `${origin}/mcp`,
    redirectUri: 'http://127.0.0.1:1/callback',
    client: { clientId: 'c' },
    authorize: async (url) => {
      opened.push(url);
      throw new Error('stop here');
    },
  });
  expect((await failure(provider.login())).code).toBe('interaction_required');
  expect(opened[0]?.pathname).toBe('/authorize');
});

describe('response bodies are read with a cap (finding 7)', () => {
  it('exports the 256 KiB default', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(256 * 1024);
  });

  it.each([
    ['chunked', {}],
    ['with a true Content-Length', { 'content-length': String(SIXTY_FOUR_MB) }],
  ])('a 64 MB Protected Resource Metadata document (%s) is cut off near the cap', async (_name, headers) => {
    const huge = hugeBody(SIXTY_FOUR_MB, headers);
    const { origin } = await serve({ '/.well-known/oauth-protected-resource/mcp': huge.route });
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('response_too_large');
    expect(error.message).toContain('maxResponseBytes');
    await huge.result.closed;
    // The client hung up: the server never got to the end, and wrote little more than the cap
    // (the rest is what the two sockets' buffers held).
    expect(huge.result.finished).toBe(false);
    expect(huge.result.written).toBeLessThan(16 * 1024 * 1024);
  });

  it('maxResponseBytes lowers the cap', async () => {
    const { origin } = await serve(metadata(() => ({ pad: 'x'.repeat(8 * 1024) })));
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
      maxResponseBytes: 4 * 1024,
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('response_too_large');
    expect(error.message).toMatch(/larger than 4096 bytes \(maxResponseBytes\)/);
  });

  it.each([
    ['/register', 'Dynamic Client Registration'],
    ['/token', 'token'],
  ])('a 64 MB %s response is cut off too (%s)', async (path) => {
    const huge = hugeBody(SIXTY_FOUR_MB);
    const { origin } = await serve({ ...metadata(() => ({})), [path]: huge.route });
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      grant: 'client_credentials',
      ...(path === '/token' ? { client: { clientId: 'c', clientSecret: 's' } } : {}),
    });
    const error = await failure(provider.login());
    expect(error.code).toBe('response_too_large');
    expect(error.message).toContain('maxResponseBytes');
    await huge.result.closed;
    expect(huge.result.finished).toBe(false);
    expect(huge.result.written).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("a challenge's resource_metadata URL (finding 7)", () => {
  const challenge = (url: string): Response =>
    new Response(null, { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${url}"` } });

  it('is not fetched from another origin than the MCP server', async () => {
    const other = await serve(metadata(() => ({})));
    const { origin } = await serve(metadata(() => ({})));
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
    });
    const error = await failure(
      provider.onUnauthorized(challenge(`${other.origin}/.well-known/oauth-protected-resource/mcp`)),
    );
    expect(error.code).toBe('discovery_failed');
    expect(error.message).toContain('resourceMetadataOrigins');
    expect(other.seen).toEqual([]);
  });

  it('is fetched from an origin listed in resourceMetadataOrigins (and must still name this server)', async () => {
    const other = await serve(metadata(() => ({})));
    const { origin } = await serve(metadata(() => ({})));
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
      resourceMetadataOrigins: [other.origin],
    });
    const error = await failure(
      provider.onUnauthorized(challenge(`${other.origin}/.well-known/oauth-protected-resource/mcp`)),
    );
    // RFC 9728 §3.3: the document names the other origin as its resource, not this server.
    expect(error.code).toBe('resource_mismatch');
    expect(other.seen).toEqual(['/.well-known/oauth-protected-resource/mcp']);
  });

  it('on the server origin is fetched first', async () => {
    const { origin, seen } = await serve({
      ...metadata(() => ({})),
      '/custom-prm': json((o) => ({ resource: `${o}/mcp`, authorization_servers: ['file:///x'] })),
    });
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: async () => `${origin}/never`,
    });
    const error = await failure(provider.onUnauthorized(challenge(`${origin}/custom-prm`)));
    expect(error.code).toBe('invalid_metadata');
    expect(seen).toEqual(['/custom-prm']);
  });
});

describe('siblings', () => {
  it('tokenExchangeAssertion reads the IdP answer with the cap too', async () => {
    const huge = hugeBody(SIXTY_FOUR_MB);
    const { origin } = await serve({ '/token': huge.route });
    const assertion = tokenExchangeAssertion({
      tokenEndpoint: `${origin}/token`,
      clientId: 'c',
      subjectToken: () => 'id-token',
    });
    const error = await failure(
      Promise.resolve().then(() =>
        assertion({ issuer: origin, resource: `${origin}/mcp`, scope: undefined }),
      ),
    );
    expect(error.code).toBe('response_too_large');
    expect(error.message).toContain('maxResponseBytes');
    await huge.result.closed;
    expect(huge.result.finished).toBe(false);
    expect(huge.result.written).toBeLessThan(16 * 1024 * 1024);
  });

  it.each(['file:///etc/passwd?state=s', 'x-unknown-handler://x?state=s', 'javascript:alert(1)?state=s'])(
    'startLoopbackRedirect never hands %s to openUrl',
    async (url) => {
      const openUrl = vi.fn();
      await using loopback = await startLoopbackRedirect({ openUrl });
      const error = await failure(loopback.authorize(new URL(url)));
      expect(error.code).toBe('invalid_metadata');
      expect(openUrl).not.toHaveBeenCalled();
    },
  );
});
