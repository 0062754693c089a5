import fc from 'fast-check';
import {
  type BodyHostility,
  type DocumentReply,
  PROTOTYPE_KEYS,
  replyArbitrary,
  withPrototypeKey,
  wrongTypeArbitrary,
} from './hostile-document.js';

/**
 * What a hostile OAuth discovery party serves: the Protected Resource Metadata (RFC 9728) of the MCP
 * server at `<origin>/mcp`, and the Authorization Server metadata (RFC 8414 / OIDC) of `<origin>/as`.
 */
export interface MetadataPlan {
  /** Served at the path-inserted PRM well-known, or at the root one (the other answers 404). */
  readonly prmAt: 'inserted' | 'root';
  readonly prm: DocumentReply;
  /** Served at every AS metadata well-known of `<origin>/as`. */
  readonly as: DocumentReply;
  /**
   * The run must end in a refusal: a PRM (served 200 as a JSON object) whose `resource` is not this
   * server, or AS metadata whose `issuer` is not the issuer asked for (RFC 9728 §3.3, RFC 8414 §3.3).
   */
  readonly mustRefuse: boolean;
}

/** The endpoints the hostile party names: all on 127.0.0.1, so nothing leaves the machine. */
export interface MetadataSite {
  readonly origin: string;
  readonly closedPort: number;
  readonly limits: BodyHostility;
}

export const PRM_PATHS = {
  inserted: '/.well-known/oauth-protected-resource/mcp',
  root: '/.well-known/oauth-protected-resource',
};
export const AS_PATHS = [
  '/.well-known/oauth-authorization-server/as',
  '/.well-known/openid-configuration/as',
  '/as/.well-known/openid-configuration',
];

export function validPrm(origin: string): Record<string, unknown> {
  return {
    resource: `${origin}/mcp`,
    authorization_servers: [`${origin}/as`],
    scopes_supported: ['mcp'],
    bearer_methods_supported: ['header'],
  };
}

export function validAs(origin: string): Record<string, unknown> {
  return {
    issuer: `${origin}/as`,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    jwks_uri: `${origin}/jwks`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    scopes_supported: ['mcp', 'offline_access'],
  };
}

/**
 * URLs no client may trust or fetch blindly: script and file schemes, unknown handlers, malformed and
 * relative URLs, credentials, a refused port, TLS to a plain-HTTP port, oversized paths. None names a
 * host off this machine.
 */
export function hostileUrls(site: MetadataSite): string[] {
  const { origin, closedPort } = site;
  const port = new URL(origin).port;
  return [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:application/json,{}',
    'x-unknown-handler://run?cmd=calc',
    'ftp://127.0.0.1/token',
    'http://[::1',
    'not a url',
    '',
    ' ',
    '/relative/token',
    '//127.0.0.1/token',
    `https://127.0.0.1:${port}/token`,
    `http://127.0.0.1:${closedPort}/token`,
    `http://user:secret@127.0.0.1:${port}/token`,
    `${origin}/token#fragment`,
    `${origin}/${'a'.repeat(8_000)}`,
    `http://127.0.0.1:${port}/to\nken`,
    `http://127.0.0.1:${port}/%00`,
    `HTTP://127.0.0.1:${port}/TOKEN`,
  ];
}

type Mutation = { doc: Record<string, unknown>; text?: string; how: string; refuses: boolean };

/** A valid document with one to three fields made hostile (or none); `guarded` fields must refuse. */
function documentArbitrary(
  valid: Record<string, unknown>,
  urlFields: readonly string[],
  guarded: string,
  site: MetadataSite,
): fc.Arbitrary<{ text: string; how: string; refuses: boolean }> {
  const keys = Object.keys(valid);
  const urls = hostileUrls(site);
  const mutation: fc.Arbitrary<(m: Mutation) => Mutation> = fc.oneof(
    fc.tuple(fc.constantFrom(...keys), wrongTypeArbitrary).map(([key, value]) => (m: Mutation) => ({
      doc: { ...m.doc, [key]: value },
      how: `${m.how} ${key}=${JSON.stringify(value)?.slice(0, 40)}`,
      // A string is a different value, not a wrong type: whether it still refuses depends on which.
      refuses: m.refuses || (key === guarded && value !== valid[key]),
    })),
    fc.tuple(fc.constantFrom(...urlFields), fc.constantFrom(...urls)).map(([key, url]) => (m: Mutation) => ({
      doc: { ...m.doc, [key]: key === 'authorization_servers' ? [url] : url },
      how: `${m.how} ${key}=${url.slice(0, 40)}`,
      refuses: m.refuses || key === guarded,
    })),
    fc.constantFrom(...keys).map((key) => (m: Mutation) => {
      const { [key]: _dropped, ...rest } = m.doc;
      return { doc: rest, how: `${m.how} -${key}`, refuses: m.refuses || key === guarded };
    }),
    fc.constantFrom(...PROTOTYPE_KEYS).map((key) => (m: Mutation) => ({
      ...m,
      text: withPrototypeKey(m.doc, key),
      how: `${m.how} +${key}`,
    })),
  );
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
    )
    .map((steps) => {
      let m: Mutation = { doc: valid, how: 'valid', refuses: false };
      for (const step of steps) m = step({ doc: m.doc, how: m.how, refuses: m.refuses });
      return { text: m.text ?? JSON.stringify(m.doc), how: m.how, refuses: m.refuses };
    });
}

/**
 * Hostile PRM and AS metadata for the discovery of the MCP server `<origin>/mcp`.
 *
 * @example
 * ```ts
 * fc.assert(fc.asyncProperty(metadataPlanArbitrary(site), async (plan) => { ... }));
 * ```
 */
export function metadataPlanArbitrary(site: MetadataSite): fc.Arbitrary<MetadataPlan> {
  const prmDoc = documentArbitrary(
    validPrm(site.origin),
    ['resource', 'authorization_servers'],
    'resource',
    site,
  );
  const asDoc = documentArbitrary(
    validAs(site.origin),
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri'],
    'issuer',
    site,
  );
  // The refusal a document demands only holds when it reaches the client as a JSON object.
  const reply = (doc: fc.Arbitrary<{ text: string; how: string; refuses: boolean }>) =>
    doc.chain((d) =>
      replyArbitrary(fc.constant(d), site.limits).map((r) => ({
        reply: r,
        refuses: d.refuses && r.status === 200 && (r.how === d.how || r.how.startsWith(`${d.how} as `)),
      })),
    );
  return fc
    .record({
      prmAt: fc.constantFrom<'inserted' | 'root'>('inserted', 'root'),
      prm: reply(prmDoc),
      as: reply(asDoc),
    })
    .map(({ prmAt, prm, as }) => ({
      prmAt,
      prm: prm.reply,
      as: as.reply,
      // The AS document is read only after a usable PRM.
      mustRefuse: prm.refuses || (prm.reply.how === 'valid' && as.refuses),
    }));
}
