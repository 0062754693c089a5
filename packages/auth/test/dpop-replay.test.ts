// DPoP replay protection at the resource server (RFC 9449 §11.1: "the server MUST ensure that the same
// proof is not used more than once within [the acceptable iat window]"). The replay cache is kept per
// key thumbprint (cnf.jkt): only the holder of a key can add entries under it, so no caller can flush
// another's. Real ES256 keys and proofs (jose), through bearerAuth's own authenticate hook.
import type { AuthInfo } from '@x/protocol';
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  bearerAuth,
  type BearerAuthOptions,
  DEFAULT_DPOP_MAX_AGE_SEC,
  DEFAULT_MAX_DPOP_PROOFS_PER_KEY,
} from '../src/index.js';

const RESOURCE = 'https://mcp.example.com/mcp';

afterEach(() => {
  vi.useRealTimers();
});

/** A client holding a DPoP key and an access token bound to it. */
async function holder() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  const token = `at-${jkt}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const ath = base64url.encode(new Uint8Array(digest));
  const proof = () =>
    new SignJWT({ htm: 'POST', htu: RESOURCE, ath, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
      .setIssuedAt()
      .sign(privateKey);
  const request = (dpop: string) =>
    new Request(RESOURCE, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop } });
  return { jkt, token, proof, request };
}

/** bearerAuth whose tokens are the holders' (a verify function stands in for the AS). */
function protect(holders: { jkt: string; token: string }[], extra: Partial<BearerAuthOptions> = {}) {
  const bound = new Map(holders.map((h) => [h.token, h.jkt]));
  const errors: AuthError[] = [];
  const authenticate = bearerAuth({
    resource: RESOURCE,
    authorizationServers: ['https://as.example.com'],
    verify: async (token): Promise<AuthInfo> => {
      const jkt = bound.get(token);
      if (jkt === undefined) throw new AuthError('invalid_token', 'unknown token');
      return { token, clientId: jkt, scopes: [], extra: { cnf: { jkt } } };
    },
    onerror: (e) => errors.push(e),
    ...extra,
  });
  const status = async (request: Request) => {
    const answer = await authenticate(request);
    return answer instanceof Response ? answer.status : 200;
  };
  return { authenticate, status, errors };
}

describe('DPoP replay cache', () => {
  it('still refuses a captured proof after 10 001 proofs under another key (the flush attack)', async () => {
    const victim = await holder();
    const attacker = await holder();
    const { authenticate, status } = protect([victim, attacker]);
    const captured = await victim.proof();
    expect(await status(victim.request(captured))).toBe(200);
    const answers = new Map<number, number>();
    for (let i = 0; i < 10_001; i += 1) {
      const s = await status(attacker.request(await attacker.proof()));
      answers.set(s, (answers.get(s) ?? 0) + 1);
    }
    const replay = await authenticate(victim.request(captured));
    expect(replay).toBeInstanceOf(Response);
    expect((replay as Response).status).toBe(401);
    expect((replay as Response).headers.get('www-authenticate')).toContain('already used');
    // The attacker only ever fills its own partition, and is refused (503) once that is full.
    expect(answers.get(200)).toBe(DEFAULT_MAX_DPOP_PROOFS_PER_KEY);
    expect(answers.get(503)).toBe(10_001 - DEFAULT_MAX_DPOP_PROOFS_PER_KEY);
    // The victim itself is unaffected: a fresh proof of its own passes.
    expect(await status(victim.request(await victim.proof()))).toBe(200);
  }, 180_000);

  it('refuses new proofs with 503 when full instead of forgetting unexpired ones, until they expire', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const [a, b, c] = [await holder(), await holder(), await holder()] as const;
    const { authenticate, status, errors } = protect([a, b, c], {
      dpop: { maxRememberedProofs: 4, maxProofsPerKey: 2 },
    });
    const seen = [await a.proof(), await a.proof(), await b.proof(), await b.proof()];
    for (const p of seen.slice(0, 2)) expect(await status(a.request(p))).toBe(200);
    for (const p of seen.slice(2)) expect(await status(b.request(p))).toBe(200);

    // Per key: a third proof of `a` is refused, and the error names the option to raise.
    expect(await status(a.request(await a.proof()))).toBe(503);
    expect(errors.at(-1)?.code).toBe('replay_cache_full');
    expect(errors.at(-1)?.message).toContain('maxProofsPerKey');
    // Overall: `c`, with an empty partition, is refused too rather than evicting `a`'s or `b`'s.
    const full = await authenticate(c.request(await c.proof()));
    expect((full as Response).status).toBe(503);
    expect((full as Response).headers.get('retry-after')).toMatch(/^\d+$/);
    expect(errors.at(-1)?.message).toContain('maxRememberedProofs');
    // Nothing was forgotten: every proof seen is still a replay.
    expect(await status(a.request(seen[0] as string))).toBe(401);
    expect(await status(b.request(seen[3] as string))).toBe(401);

    // An entry lives only as long as its proof's iat window; then the room is free again.
    vi.setSystemTime(Date.now() + (DEFAULT_DPOP_MAX_AGE_SEC + 2) * 1000);
    expect(await status(c.request(await c.proof()))).toBe(200);
    expect(await status(a.request(await a.proof()))).toBe(200);
    // ...and the old proofs are refused for their age, not remembered.
    const old = await authenticate(a.request(seen[0] as string));
    expect((old as Response).headers.get('www-authenticate')).toContain('too old');
  });
});
