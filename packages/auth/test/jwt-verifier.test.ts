// A key set that changes (key rotation at the AS): a token under a new `kid` makes the verifier fetch
// the JWKS again; a token under a withdrawn key is refused with a typed error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, jwtVerifier } from '../src/index.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function key(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } as JWK };
}

describe('jwtVerifier with a rotating JWKS', () => {
  it('refetches for a new kid and refuses a withdrawn key', async () => {
    const k1 = await key('k1');
    const k2 = await key('k2');
    let keys: JWK[] = [k1.jwk];
    let fetches = 0;
    server = createServer((_req, res) => {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const resource = 'https://mcp.example.com/mcp';
    const verify = jwtVerifier({ jwks: `${origin}/jwks`, issuers: [origin], resource, jwksCooldownMs: 0 });
    const sign = (k: typeof k1) =>
      new SignJWT({ scope: 'a', client_id: 'c' })
        .setProtectedHeader({ alg: 'ES256', kid: k.kid })
        .setIssuer(origin)
        .setAudience(resource)
        .setExpirationTime('5m')
        .sign(k.privateKey);
    const request = new Request(resource);
    expect((await verify(await sign(k1), request)).scopes).toEqual(['a']);
    keys = [k2.jwk]; // rotation: k1 withdrawn, k2 published
    expect((await verify(await sign(k2), request)).clientId).toBe('c');
    expect(fetches).toBe(2);
    const refused = await verify(await sign(k1), request).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).code).toBe('invalid_token');
  });
});
