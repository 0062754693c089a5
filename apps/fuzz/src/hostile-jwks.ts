import fc from 'fast-check';
import {
  type BodyHostility,
  type DocumentReply,
  replyArbitrary,
  wrongTypeArbitrary,
} from './hostile-document.js';
import type { SigningKey } from './jwt-signer.js';

/**
 * Hostile JWKS documents (RFC 7517) for a resource whose tokens are signed by a key the documents never
 * hold: the attacker's keys under the trusted `kid`, malformed keys (wrong `kty`, `crv`, missing or
 * huge members, `use: enc`), `keys` of the wrong type or empty, and every body hostility of
 * `replyArbitrary`.
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(jwksReplyArbitrary(attackerKeys, limits), async (reply) => { ... }));
 * ```
 */
export function jwksReplyArbitrary(
  attacker: readonly SigningKey[],
  limits: BodyHostility,
): fc.Arbitrary<DocumentReply> {
  const attackerJwk = fc.constantFrom(...attacker.map((key) => key.jwk as Record<string, unknown>));
  const key: fc.Arbitrary<{ jwk: unknown; how: string }> = fc.oneof(
    attackerJwk.map((jwk) => ({ jwk, how: `attacker ${String(jwk['kid'])}` })),
    fc
      .tuple(
        attackerJwk,
        fc.constantFrom('kty', 'crv', 'x', 'y', 'n', 'e', 'alg', 'use', 'kid', 'key_ops'),
        wrongTypeArbitrary,
      )
      .map(([jwk, name, value]) => ({
        jwk: { ...jwk, [name]: value },
        how: `${name}=${JSON.stringify(value)?.slice(0, 30)}`,
      })),
    fc
      .tuple(attackerJwk, fc.integer({ min: 1, max: Math.min(limits.hugeBytes, 1 << 20) }))
      .map(([jwk, size]) => ({
        jwk: { ...jwk, x: 'A'.repeat(size), n: 'A'.repeat(size) },
        how: `huge(${size})`,
      })),
    attackerJwk.map((jwk) => ({ jwk: { ...jwk, use: 'enc', kid: 'k1' }, how: 'use enc' })),
    wrongTypeArbitrary.map((jwk) => ({ jwk, how: `key ${JSON.stringify(jwk)?.slice(0, 30)}` })),
  );
  const document = fc.oneof(
    fc.array(key, { maxLength: 4 }).map((keys) => ({
      text: JSON.stringify({ keys: keys.map((k) => k.jwk) }),
      how: `keys [${keys.map((k) => k.how).join(', ')}]`,
    })),
    wrongTypeArbitrary.map((keys) => ({
      text: JSON.stringify({ keys }),
      how: `keys=${JSON.stringify(keys)?.slice(0, 30)}`,
    })),
  );
  return replyArbitrary(document, limits);
}
