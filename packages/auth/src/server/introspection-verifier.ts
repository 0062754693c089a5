import type { AuthInfo } from '@x/protocol';
import { AuthError } from '../auth-error.js';
import { limitOption } from '../limit-option.js';
import { ResponseTooLarge, readCappedText } from '../read-capped-text.js';
import { IntrospectionCache, type IntrospectionCacheOptions } from './introspection-cache.js';
import {
  audiencesOf,
  clientIdOf,
  DEFAULT_CLOCK_TOLERANCE_SEC,
  scopesOf,
  type TokenVerifier,
} from './token-verifier.js';

/** Default `timeoutMs`: an introspection request (answer and body) abandoned after this long is 503. */
export const DEFAULT_INTROSPECTION_TIMEOUT_MS = 5_000;
/** Default `maxResponseBytes`: the largest introspection answer read (64 KiB). */
export const DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES = 64 * 1024;

/** Options of `introspectionVerifier`. */
export interface IntrospectionVerifierOptions {
  /** The AS's `introspection_endpoint`. */
  endpoint: string | URL;
  /** This resource server's credentials at the AS (`client_secret_basic`). */
  clientId: string;
  clientSecret: string;
  /** This resource: the answer's `aud` must name it (RFC 8707 §2), unless `audiences` is given. */
  resource: string | URL;
  /**
   * The `aud` values accepted instead of `resource` (for an AS that names resources otherwise, e.g.
   * `urn:…` or a client id). The answer must carry one of them; an answer without `aud` is refused.
   */
  audiences?: readonly string[] | undefined;
  /** Allowed skew for `exp`/`nbf`, in seconds. Default `DEFAULT_CLOCK_TOLERANCE_SEC` (5). */
  clockToleranceSec?: number | undefined;
  /** Abandon a request (until the whole body is read) after this long, then 503. Default 5 000. */
  timeoutMs?: number | undefined;
  /** Refuse (503) a larger answer, reading no further. Default `DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES`. */
  maxResponseBytes?: number | undefined;
  /**
   * Reuse answers (see `IntrospectionCacheOptions`); `false` asks the AS on every request (concurrent
   * requests with one token still share one question). Default `{}`.
   */
  cache?: IntrospectionCacheOptions | false | undefined;
  fetch?: typeof fetch | undefined;
}

function basic(id: string, secret: string): string {
  // RFC 6749 §2.3.1: form-urlencode each part before base64.
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(id)}:${encode(secret)}`)}`;
}

/**
 * Verifies opaque (or any) tokens with OAuth 2.0 Token Introspection (RFC 7662): `active`, an `aud`
 * naming this resource (required: MCP servers MUST validate the audience), `exp` and `nbf`. The AS's
 * trouble (no answer within `timeoutMs`, a status other than 200, a redirect, a body over
 * `maxResponseBytes`, no JSON object with a boolean `active`) is `verifier_unavailable` (503), never a
 * bad token. Answers are cached for `cache.ttlSec`, never past the token's `exp`.
 *
 * @example
 * ```ts
 * const verify = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/token/introspect',
 *   clientId: 'mcp-server', clientSecret: process.env.INTROSPECTION_SECRET!,
 *   resource: 'https://api.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const audiences = new Set(options.audiences ?? audiencesOf(options.resource));
  const tolerance = limitOption('clockToleranceSec', options.clockToleranceSec, DEFAULT_CLOCK_TOLERANCE_SEC, {
    min: 0,
  });
  const limits = {
    timeoutMs: limitOption('introspection timeoutMs', options.timeoutMs, DEFAULT_INTROSPECTION_TIMEOUT_MS, {
      min: 1,
      integer: true,
    }),
    maxBytes: limitOption(
      'introspection maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES,
      { min: 1, integer: true },
    ),
  };
  const cache = options.cache === false ? undefined : new IntrospectionCache(options.cache);
  // Requests in flight by token digest, so a burst with one new token asks the AS once (bounded by
  // the requests being served).
  const asking = new Map<string, Promise<Record<string, unknown> | undefined>>();
  const ask = (key: string, token: string) => {
    let pending = asking.get(key);
    if (pending === undefined) {
      pending = introspect(options, limits, token).then((claims) => {
        cache?.set(key, claims, Date.now());
        return claims;
      });
      const settled = () => asking.delete(key);
      pending.then(settled, settled);
      asking.set(key, pending);
    }
    return pending;
  };
  return async (token) => {
    const key = await digest(token);
    const claims = (cache?.get(key, Date.now()) ?? { claims: await ask(key, token) }).claims;
    if (claims === undefined) throw new AuthError('invalid_token', 'the access token is not active');
    const now = Date.now() / 1000;
    const exp = claims['exp'];
    if (typeof exp === 'number' && exp + tolerance < now)
      throw new AuthError('invalid_token', 'the access token has expired');
    const nbf = claims['nbf'];
    if (typeof nbf === 'number' && nbf - tolerance > now)
      throw new AuthError('invalid_token', 'the access token is not valid yet (nbf)');
    // MCP 2025-11-25 "Token Handling": tokens MUST be issued for this server as the intended audience
    // (RFC 8707 §2). An answer that names no audience does not say so.
    const aud = claims['aud'];
    const list: unknown[] = Array.isArray(aud) ? aud : [aud];
    if (!list.some((a) => typeof a === 'string' && audiences.has(a)))
      throw new AuthError(
        'invalid_token',
        aud === undefined
          ? `the introspection answer has no "aud"; it must name this resource`
          : `the access token's "aud" claim is not accepted here`,
      );
    const info: AuthInfo = {
      token,
      clientId: clientIdOf(claims),
      scopes: scopesOf(claims),
      resource: new URL(options.resource),
      extra: { sub: claims['sub'], iss: claims['iss'], cnf: claims['cnf'] },
    };
    if (typeof exp === 'number') info.expiresAt = exp;
    return info;
  };
}

/** Asks the AS: the claims of an active token, `undefined` for an inactive one. */
async function introspect(
  options: IntrospectionVerifierOptions,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
  token: string,
): Promise<Record<string, unknown> | undefined> {
  const signal = AbortSignal.timeout(timeoutMs);
  let body: unknown;
  try {
    const response = await (options.fetch ?? fetch)(options.endpoint, {
      method: 'POST',
      headers: {
        authorization: basic(options.clientId, options.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal,
      // The request carries our credentials and the caller's token: send them nowhere else.
      redirect: 'manual',
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new AuthError(
        'verifier_unavailable',
        `the token introspection endpoint answered ${response.status}`,
      );
    }
    const text = await readCappedText(response, {
      maxBytes,
      option: 'introspection maxResponseBytes',
    });
    body = JSON.parse(text);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const why = signal.aborted
      ? `did not answer within ${timeoutMs} ms (introspection timeoutMs)`
      : error instanceof ResponseTooLarge
        ? error.message
        : error instanceof SyntaxError
          ? 'answered something other than JSON'
          : 'could not be reached';
    throw new AuthError('verifier_unavailable', `the token introspection endpoint ${why}`, { cause: error });
  }
  // RFC 7662 §2.2: a JSON object whose `active` (REQUIRED) is a boolean.
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    typeof (body as { active?: unknown }).active !== 'boolean'
  )
    throw new AuthError(
      'verifier_unavailable',
      'the token introspection endpoint answered something other than an RFC 7662 answer',
    );
  const claims = body as Record<string, unknown>;
  return claims['active'] === true ? claims : undefined;
}

async function digest(token: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return btoa(String.fromCharCode(...new Uint8Array(hash)));
}
