// discoverJwksUri: a resource server that knows only its issuer finds the key set as a client would
// (MCP 2025-11-25 "Authorization Server Metadata Discovery": RFC 8414, then OpenID Connect Discovery),
// against a real OpenID provider and against hostile metadata servers on 127.0.0.1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer } from '@x/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, bearerAuth, discoverJwksUri } from '../src/index.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './fixtures/mcp-server.js';
import { startAuthorizationServer } from './fixtures/oidc.js';

const disposables: AsyncDisposable[] = [];
afterEach(async () => {
  for (const d of disposables.splice(0).reverse()) await d[Symbol.asyncDispose]();
});

/** A metadata server on 127.0.0.1 whose OpenID configuration is `document(issuer)`. */
async function metadataServer(
  document: (issuer: string) => unknown,
  handle?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<string> {
  let issuer = '';
  const http = await startHttpServer((req, res) => {
    if (handle?.(req, res) === true) return;
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(issuer)));
      return;
    }
    res.writeHead(404).end();
  });
  disposables.push(http);
  issuer = http.url;
  return issuer;
}

async function refusal(issuer: string, options?: Parameters<typeof discoverJwksUri>[1]): Promise<AuthError> {
  const failed = await discoverJwksUri(issuer, options).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failed).toBeInstanceOf(AuthError);
  return failed as AuthError;
}

describe('discoverJwksUri', () => {
  it('finds the key set of a real OpenID provider, and bearerAuth admits its tokens with it', async () => {
    const server: ProtectedMcpServer = await startProtectedMcpServer();
    disposables.push(server);
    const as = await startAuthorizationServer({ resources: [server.url] });
    disposables.push(as);
    const jwks = await discoverJwksUri(as.issuer);
    expect(jwks.href).toBe(`${as.issuer}/jwks`);
    server.setAuthenticate(bearerAuth({ resource: server.url, authorizationServers: [as.issuer], jwks }));
    const token = await as.clientCredentialsToken(server.url, 'mcp:tools');
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it.each([
    ['file:///etc/passwd', 'file:'],
    ['javascript:alert(1)', 'javascript:'],
    ['http://keys.example/jwks', 'http: on keys.example'],
  ])('refuses a jwks_uri of %s (only https:, or http: on a loopback host)', async (jwksUri, named) => {
    const issuer = await metadataServer((iss) => ({ issuer: iss, jwks_uri: jwksUri }));
    const error = await refusal(issuer);
    expect(error.code).toBe('invalid_metadata');
    expect(error.message).toContain(named);
  });

  it('refuses metadata that names another issuer (RFC 8414 §3.3)', async () => {
    const issuer = await metadataServer(() => ({
      issuer: 'https://elsewhere.example',
      jwks_uri: 'https://e/j',
    }));
    const error = await refusal(issuer);
    expect(error.code).toBe('invalid_metadata');
    expect(error.message).toContain('does not name issuer');
  });

  it('refuses metadata without a jwks_uri, and an issuer with no metadata at all', async () => {
    const bare = await metadataServer((iss) => ({ issuer: iss }));
    expect((await refusal(bare)).message).toContain('has no jwks_uri');
    const none = await metadataServer(
      () => ({}),
      (_req, res) => Boolean(res.writeHead(404).end()),
    );
    expect((await refusal(none)).code).toBe('discovery_failed');
  });

  it('stops reading a document past maxResponseBytes and names the option', async () => {
    const issuer = await metadataServer((iss) => ({
      issuer: iss,
      jwks_uri: `${iss}/jwks`,
      pad: 'x'.repeat(4096),
    }));
    const error = await refusal(issuer, { maxResponseBytes: 1024 });
    expect(error.message).toContain('maxResponseBytes');
  });

  it('gives up after timeoutMs on an issuer that never answers, and names the option', async () => {
    const issuer = await metadataServer(
      () => ({}),
      () => true, // never answers
    );
    const error = await refusal(issuer, { timeoutMs: 200 });
    expect(error.code).toBe('discovery_failed');
    expect(error.message).toContain('(timeoutMs)');
  });

  it('refuses an http: issuer off loopback unless allowInsecureHttp', async () => {
    const error = await refusal('http://as.example');
    expect(error.code).toBe('discovery_failed');
    expect(error.message).toContain('allowInsecureHttp');
  });
});
