import fc from 'fast-check';
import {
  type BodyHostility,
  type DocumentReply,
  PROTOTYPE_KEYS,
  replyArbitrary,
  withPrototypeKey,
  wrongTypeArbitrary,
} from './hostile-document.js';

/** The resource server asking, and the scope every request needs there. */
export interface IntrospectionSite {
  readonly resource: string;
  readonly requiredScope: string;
  readonly limits: BodyHostility;
}

/** An RFC 7662 answer for a token the resource accepts. */
export function activeAnswer(site: IntrospectionSite): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    active: true,
    scope: `${site.requiredScope} extra`,
    client_id: 'client-1',
    sub: 'user-1',
    aud: site.resource,
    iss: 'https://as.example',
    exp: now + 3600,
    iat: now,
    token_type: 'Bearer',
  };
}

/**
 * May the resource accept a token for this introspection answer? Only an `active: true` object whose
 * `exp` (when a number) is in the future, whose `nbf` (when a number) is not, whose `aud` names the
 * resource, and whose scope holds the one required. This is the floor: a stricter verifier (one that
 * refuses wrongly typed members) still meets it.
 */
export function mayAccept(reply: DocumentReply, site: IntrospectionSite): boolean {
  // RFC 7662 §2.2 says 200; another 2xx carrying a good answer is no attack.
  if (reply.status < 200 || reply.status > 299) return false;
  let answer: unknown;
  try {
    answer = JSON.parse(reply.body);
  } catch {
    return false;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return false;
  const claims = answer as Record<string, unknown>;
  if (claims['active'] !== true) return false;
  const exp = claims['exp'];
  if (typeof exp === 'number' && exp < Date.now() / 1000) return false;
  const aud = claims['aud'];
  // MCP 2025-11-25 "Token Handling": the resource server MUST validate the audience, so none is no.
  if (!(Array.isArray(aud) ? aud : [aud]).includes(site.resource)) return false;
  const nbf = claims['nbf'];
  if (typeof nbf === 'number' && nbf > Date.now() / 1000 + 60) return false;
  const scope = claims['scope'];
  const scp = claims['scp'];
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ')
      : Array.isArray(scp)
        ? scp.filter((s) => typeof s === 'string')
        : [];
  return scopes.includes(site.requiredScope);
}

/**
 * Hostile introspection answers: wrong types for `active`, `exp`, `aud`, `scope`; expired, foreign and
 * missing members; prototype keys; and every body hostility of `replyArbitrary` (huge, deep, truncated,
 * garbage, error statuses, wrong content types).
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(introspectionReplyArbitrary(site), async (reply) => { ... }));
 * ```
 */
export function introspectionReplyArbitrary(site: IntrospectionSite): fc.Arbitrary<DocumentReply> {
  const now = Math.floor(Date.now() / 1000);
  const often = <T>(common: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 3, arbitrary: common }, { weight: 1, arbitrary: rare });
  const values: Record<string, fc.Arbitrary<unknown>> = {
    active: often(
      fc.constantFrom(false, 'true', 1, 'yes', [true], { value: true }, null),
      wrongTypeArbitrary,
    ),
    exp: often(
      fc.constantFrom(now - 3600, 0, -1, now - 86_400 * 365),
      fc.oneof(
        fc.constantFrom(String(now + 3600), null, 1e308, [now + 3600], { exp: now }),
        wrongTypeArbitrary,
      ),
    ),
    nbf: fc.constantFrom(now + 3600, String(now), null),
    aud: often(
      fc.constantFrom(
        'https://evil.example/mcp',
        `${site.resource}/`,
        site.resource.toUpperCase(),
        [],
        ['https://evil.example/mcp'],
        [site.resource, 'https://evil.example/mcp'],
        [1, site.resource],
        null,
      ),
      wrongTypeArbitrary,
    ),
    scope: often(
      fc.constantFrom('', 'other', `${site.requiredScope}x`, [site.requiredScope], null, 1),
      wrongTypeArbitrary,
    ),
    scp: fc.constantFrom([site.requiredScope], site.requiredScope, [1], null),
    client_id: wrongTypeArbitrary,
    sub: wrongTypeArbitrary,
    cnf: fc.constantFrom({ jkt: 'bm90LWEtcmVhbC10aHVtYnByaW50' }, 'jkt', null, []),
    token_type: wrongTypeArbitrary,
  };
  // The members a verifier decides on come up three times as often as the rest.
  const decisive = ['active', 'exp', 'aud', 'scope'];
  const names = Object.keys(values).flatMap((name) =>
    decisive.includes(name) ? [name, name, name] : [name],
  );
  type Edit = (doc: Record<string, unknown>) => { doc: Record<string, unknown>; how: string; text?: string };
  const setMember = fc
    .constantFrom(...names)
    .chain((name) => (values[name] as fc.Arbitrary<unknown>).map((value) => ({ name, value })))
    .map(
      ({ name, value }): Edit =>
        (doc) => ({ doc: { ...doc, [name]: value }, how: `${name}=${JSON.stringify(value)?.slice(0, 40)}` }),
    );
  const dropMember = fc.constantFrom(...decisive).map(
    (name): Edit =>
      (doc) => {
        const { [name]: _dropped, ...rest } = doc;
        return { doc: rest, how: `-${name}` };
      },
  );
  const prototypeKey = fc.constantFrom(...PROTOTYPE_KEYS).map(
    (key): Edit =>
      (doc) => ({ doc, text: withPrototypeKey(doc, key), how: `+${key}` }),
  );
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    { weight: 4, arbitrary: setMember },
    { weight: 1, arbitrary: dropMember },
    { weight: 1, arbitrary: prototypeKey },
  );
  const document = fc
    .oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      // Mostly one edit alone: the sharpest test that each check is made at all.
      { weight: 3, arbitrary: edit.map((one) => [one]) },
      { weight: 1, arbitrary: fc.array(edit, { minLength: 2, maxLength: 3 }) },
    )
    .map((edits) => {
      let doc = activeAnswer(site);
      let text: string | undefined;
      const how: string[] = [];
      for (const step of edits) {
        const out = step(doc);
        doc = out.doc;
        text = out.text;
        how.push(out.how);
      }
      return { text: text ?? JSON.stringify(doc), how: how.length === 0 ? 'valid' : how.join(' ') };
    });
  return replyArbitrary(document, site.limits);
}
