// A key set that changes (key rotation at the AS): a token under a new `kid` makes the verifier fetch
// the JWKS again; a token under a withdrawn key is refused with a typed error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError, DEFAULT_CLOCK_TOLERANCE_SEC, DEFAULT_JWKS_MAX_BYTES, jwtVerifier } from '../src/index.js';

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
        .setProtectedHeader({ alg: 'ES256', kid: k.kid, typ: 'at+jwt' })
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

// RFC 9068 §4: "Resource servers receiving a JWT access token MUST validate the typ header value is
// at+jwt or application/at+jwt and reject tokens carrying any other value."
describe('jwtVerifier checks the JWT access token profile (RFC 9068)', () => {
  const resource = 'https://mcp.example.com/mcp';
  const issuer = 'https://as.example.com';
  async function setupKeys() {
    const k = await key('k1');
    const sign = (typ: string | undefined, claims: { expiresIn?: number } = {}) => {
      const header: { alg: string; kid: string; typ?: string } = { alg: 'ES256', kid: 'k1' };
      if (typ !== undefined) header.typ = typ;
      return new SignJWT({ scope: 'a', client_id: 'c' })
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setAudience(resource)
        .setExpirationTime(Math.floor(Date.now() / 1000) + (claims.expiresIn ?? 300))
        .sign(k.privateKey);
    };
    return { jwks: { keys: [k.jwk] }, sign };
  }

  it.each([['at+jwt'], ['application/at+jwt'], ['AT+JWT']])('accepts typ %s', async (typ) => {
    const { jwks, sign } = await setupKeys();
    const verify = jwtVerifier({ jwks, issuers: [issuer], resource });
    expect((await verify(await sign(typ), new Request(resource))).clientId).toBe('c');
  });

  it.each([['JWT'], ['dpop+jwt'], [undefined]])(
    'refuses typ %s by default, accepts it when allowed',
    async (typ) => {
      const { jwks, sign } = await setupKeys();
      const token = await sign(typ);
      const verify = jwtVerifier({ jwks, issuers: [issuer], resource });
      const refused = await verify(token, new Request(resource)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AuthError);
      expect((refused as AuthError).code).toBe('invalid_token');
      expect((refused as AuthError).message).toContain('accessTokenTypes');
      const lenient = jwtVerifier({
        jwks,
        issuers: [issuer],
        resource,
        accessTokenTypes: typ === undefined ? false : ['at+jwt', typ],
      });
      expect((await lenient(token, new Request(resource))).clientId).toBe('c');
    },
  );

  it(`allows ${DEFAULT_CLOCK_TOLERANCE_SEC} s of clock skew by default, not 30`, async () => {
    expect(DEFAULT_CLOCK_TOLERANCE_SEC).toBeLessThanOrEqual(5);
    const { jwks, sign } = await setupKeys();
    const verify = jwtVerifier({ jwks, issuers: [issuer], resource });
    const expired = await verify(await sign('at+jwt', { expiresIn: -20 }), new Request(resource)).catch(
      (e: unknown) => e,
    );
    expect((expired as AuthError).code).toBe('invalid_token');
    expect((expired as AuthError).message).toContain('expired');
    const lenient = jwtVerifier({ jwks, issuers: [issuer], resource, clockToleranceSec: 30 });
    expect((await lenient(await sign('at+jwt', { expiresIn: -20 }), new Request(resource))).clientId).toBe(
      'c',
    );
  });
});

// An identity-provider outage must not look like a bad token: 401 invalid_token would log every user out.
describe('jwtVerifier when the key set endpoint is down', () => {
  it.each([
    ['answers 500', (res: import('node:http').ServerResponse) => res.writeHead(500).end('boom')],
    ['answers garbage', (res: import('node:http').ServerResponse) => res.writeHead(200).end('<html>')],
    [
      'answers a non-key-set',
      (res: import('node:http').ServerResponse) => res.writeHead(200).end(JSON.stringify({ nope: 1 })),
    ],
    ['redirects', (res: import('node:http').ServerResponse) => res.writeHead(302, { location: '/x' }).end()],
    ['never answers', () => {}],
  ])('with a cold cache: verifier_unavailable when it %s', async (_name, answer) => {
    const k = await key('k1');
    let fetches = 0;
    server = createServer((_req, res) => {
      fetches += 1;
      answer(res);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const resource = 'https://mcp.example.com/mcp';
    const verify = jwtVerifier({ jwks: `${origin}/jwks`, issuers: [origin], resource, jwksTimeoutMs: 500 });
    const token = await new SignJWT({ scope: 'a', client_id: 'c' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(origin)
      .setAudience(resource)
      .setExpirationTime('5m')
      .sign(k.privateKey);
    const failed = await verify(token, new Request(resource)).catch((e: unknown) => e);
    expect(fetches).toBe(1);
    expect(failed).toBeInstanceOf(AuthError);
    expect((failed as AuthError).code).toBe('verifier_unavailable');
  });

  it('stops reading a key set larger than jwksMaxBytes', async () => {
    const k = await key('k1');
    let closed = false;
    server = createServer((_req, res) => {
      res.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      // A valid key set padded to 8 MB: read whole, it would verify the token.
      res.write(`{"keys":[${JSON.stringify(k.jwk)}],"pad":"`);
      const pad = 'x'.repeat(64 * 1024);
      let written = 0;
      const pump = () => {
        while (!closed && written < 8 * 1024 * 1024) {
          written += pad.length;
          if (!res.write(pad)) return void res.once('drain', pump);
        }
        if (!closed) res.end('"}');
      };
      pump();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const resource = 'https://mcp.example.com/mcp';
    const verify = jwtVerifier({ jwks: `${origin}/jwks`, issuers: [origin], resource });
    const token = await new SignJWT({ scope: 'a', client_id: 'c' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(origin)
      .setAudience(resource)
      .setExpirationTime('5m')
      .sign(k.privateKey);
    const failed = await verify(token, new Request(resource)).catch((e: unknown) => e);
    expect((failed as AuthError).code).toBe('verifier_unavailable');
    expect((failed as AuthError).message).toContain(`${DEFAULT_JWKS_MAX_BYTES} bytes (jwksMaxBytes)`);
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000 });
  });

  it('with a warm cache: a token under an unknown kid while the key set is down is 503, a known kid still passes', async () => {
    const k1 = await key('k1');
    const k2 = await key('k2');
    let up = true;
    server = createServer((_req, res) => {
      if (up)
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [k1.jwk] }));
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const resource = 'https://mcp.example.com/mcp';
    const verify = jwtVerifier({ jwks: `${origin}/jwks`, issuers: [origin], resource, jwksCooldownMs: 0 });
    const sign = (k: typeof k1) =>
      new SignJWT({ scope: 'a', client_id: 'c' })
        .setProtectedHeader({ alg: 'ES256', kid: k.kid, typ: 'at+jwt' })
        .setIssuer(origin)
        .setAudience(resource)
        .setExpirationTime('5m')
        .sign(k.privateKey);
    expect((await verify(await sign(k1), new Request(resource))).clientId).toBe('c');
    up = false;
    const failed = await verify(await sign(k2), new Request(resource)).catch((e: unknown) => e);
    expect((failed as AuthError).code).toBe('verifier_unavailable');
    expect((await verify(await sign(k1), new Request(resource))).clientId).toBe('c');
  });
});
