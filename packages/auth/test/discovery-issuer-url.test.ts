// A Protected Resource Metadata document is hostile input: an `authorization_servers` entry that is not
// an http(s) URL (found by apps/fuzz/test/auth-hostile.test.ts) must end discovery with a typed
// AuthError `invalid_metadata`, not a bare TypeError from the URL parser, and nothing is fetched for it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, OAuthClientProvider } from '../src/index.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function servePrm(issuer: string): Promise<{ origin: string; paths: string[] }> {
  const paths: string[] = [];
  let origin = '';
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    paths.push(path);
    if (path !== '/.well-known/oauth-protected-resource/mcp') return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [issuer] }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, paths };
}

describe('discovery: the authorization server a PRM names', () => {
  it.each([
    'not a url',
    '',
    '/relative/issuer',
    'http://[::1',
    'javascript:alert(1)',
    'data:application/json,{}',
    'x-unknown-handler://run',
    'file:///etc/passwd',
  ])('%j is refused with AuthError invalid_metadata', async (issuer) => {
    const { origin, paths } = await servePrm(issuer);
    const provider = new OAuthClientProvider({
      serverUrl: `${origin}/mcp`,
      grant: 'client_credentials',
      client: { clientId: 'c', clientSecret: 's' },
    });
    const error = await provider.login().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('invalid_metadata');
    expect((error as AuthError).message).toMatch(/authorization_servers/);
    // Only the PRM was read: nothing was fetched on the strength of the bad entry.
    expect(paths).toEqual(['/.well-known/oauth-protected-resource/mcp']);
  });
});
