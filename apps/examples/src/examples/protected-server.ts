// Example: an MCP server protected by OAuth 2.1 bearer tokens (MCP "Authorization"): `bearerAuth` checks
// JWT access tokens (issuer, audience = this server, expiry, scope) against the authorization server's
// key set, and the server publishes its Protected Resource Metadata (RFC 9728) so clients can find the
// authorization server. To stay self-contained, this file plays the authorization server's part too: it
// makes an ES256 key and signs the tokens itself (a real deployment points `jwks` at the AS's jwks_uri).
// A client with a token sends it as `Authorization: Bearer …` (`x-mcp --token` does the same).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerAuth, protectedResourceMetadataHandler, resourceMetadataUrl } from '@x/auth';
import { Client } from '@x/client';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';

const issuer = 'https://auth.example.com';

// The authorization server's signing key (its public half is what `jwks` would serve).
const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
  'sign',
  'verify',
]);
const publicJwk = { ...(await crypto.subtle.exportKey('jwk', keys.publicKey)), kid: 'k1', alg: 'ES256' };
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
/** An RFC 9068 JWT access token, as the authorization server would issue it. */
async function issueToken(claims: { aud: string; scope: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' }));
  const payload = b64url(
    JSON.stringify({
      ...claims,
      iss: issuer,
      sub: 'ada',
      client_id: 'example-client',
      iat: now,
      exp: now + 300,
      jti: crypto.randomUUID(),
    }),
  );
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    keys.privateKey,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return `${header}.${payload}.${b64url(new Uint8Array(signature))}`;
}

// The MCP server: `whoami` reports the verified caller (`ctx.authInfo`).
const server = new McpServer({ name: 'protected-example', version: '1.0.0' });
server.registerTool('whoami', { description: 'Who is calling' }, (_args, ctx) => ({
  content: [
    { type: 'text', text: `${ctx.authInfo?.clientId} with scopes ${ctx.authInfo?.scopes.join(' ')}` },
  ],
}));

// Listen first: the resource identifier (the audience tokens must name) is this server's URL.
let route: Parameters<typeof toNodeHandler>[0] = async () => new Response(null, { status: 503 });
const http = createServer(toNodeHandler((request, context) => route(request, context)));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

const handler = createStreamableHttpHandler({
  onsession: (transport) => server.connect(transport),
  authenticate: bearerAuth({
    resource,
    authorizationServers: [issuer],
    jwks: { keys: [publicJwk] },
    requiredScopes: ['mcp:tools'],
  }),
});
const prm = protectedResourceMetadataHandler({
  resource,
  authorizationServers: [issuer],
  scopesSupported: ['mcp:tools'],
});
const prmUrl = resourceMetadataUrl(resource);
route = async (request, context) =>
  new URL(request.url).pathname === prmUrl.pathname ? prm(request) : handler(request, context);
console.log(`protected MCP server at ${resource}`);

const ping = (headers: Record<string, string> = {}) =>
  fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

const client = new Client({ name: 'example-client', version: '1.0.0' });
try {
  // No token: 401 with a challenge pointing at the metadata, which names the authorization server.
  const anonymous = await ping();
  assert.equal(anonymous.status, 401);
  assert.equal(
    anonymous.headers.get('www-authenticate'),
    `Bearer resource_metadata="${prmUrl.href}", scope="mcp:tools"`,
  );
  const metadata = (await (await fetch(prmUrl)).json()) as { authorization_servers: string[] };
  assert.deepEqual(metadata.authorization_servers, [issuer]);
  console.log(`no token: 401, resource metadata at ${prmUrl.pathname} names ${issuer}`);

  // A token for another server (audience) is refused; so is one without the required scope.
  const elsewhere = await ping({
    authorization: `Bearer ${await issueToken({ aud: 'https://other.example/mcp', scope: 'mcp:tools' })}`,
  });
  assert.equal(elsewhere.status, 401);
  assert.match(elsewhere.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const narrow = await ping({
    authorization: `Bearer ${await issueToken({ aud: resource, scope: 'profile' })}`,
  });
  assert.equal(narrow.status, 403);
  assert.match(
    narrow.headers.get('www-authenticate') ?? '',
    /error="insufficient_scope".*scope="[^"]*mcp:tools"/,
  );
  console.log(
    'token for another audience: 401 invalid_token; token without mcp:tools: 403 insufficient_scope',
  );

  // A good token: the client sends it on every request, the tool sees who called.
  const token = await issueToken({ aud: resource, scope: 'mcp:tools' });
  await client.connect(
    new StreamableHttpClientTransport(resource, { headers: { authorization: `Bearer ${token}` } }),
  );
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  assert.deepEqual(result.content, [{ type: 'text', text: 'example-client with scopes mcp:tools' }]);
  console.log('with a valid token: whoami = example-client with scopes mcp:tools');
} finally {
  await client.close();
  await handler.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
