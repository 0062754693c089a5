// Token introspection (RFC 7662) against a real HTTP server on 127.0.0.1 playing the AS's
// introspection endpoint: every answer the resource server cannot trust is bounded (time, size) and
// told apart — the AS's trouble is 503 `verifier_unavailable`, a token that is not for us is 401.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpServerHandle, startHttpServer } from '@x/test-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  bearerAuth,
  DEFAULT_INTROSPECTION_CACHE_TTL_SEC,
  DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES,
  type IntrospectionVerifierOptions,
  introspectionVerifier,
} from '../src/index.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const now = () => Math.floor(Date.now() / 1000);

let endpoint: HttpServerHandle | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await endpoint?.close();
  endpoint = undefined;
});

/** An introspection endpoint; `answer` sees each request (counted) and its form body. */
async function introspection(
  answer: (res: ServerResponse, form: URLSearchParams, req: IncomingMessage) => void,
): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  endpoint = await startHttpServer((req, res) => {
    calls += 1;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => answer(res, new URLSearchParams(body), req));
  });
  return { url: `${endpoint.url}/introspect`, calls: () => calls };
}

const json = (res: ServerResponse, body: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const active = (extra: Record<string, unknown> = {}) => ({
  active: true,
  aud: RESOURCE,
  client_id: 'c',
  scope: 'mcp:tools',
  exp: now() + 600,
  ...extra,
});

function verifier(url: string, extra: Partial<IntrospectionVerifierOptions> = {}) {
  const verify = introspectionVerifier({
    endpoint: url,
    clientId: 'rs',
    clientSecret: 'rs-secret',
    resource: RESOURCE,
    ...extra,
  });
  return (token = 'tok') => verify(token, new Request(RESOURCE));
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as AuthError,
  );

describe('introspectionVerifier: the answer must be for this resource', () => {
  // MCP 2025-11-25 "Authorization" §Token Handling: "MCP servers MUST validate that access tokens were
  // issued specifically for them as the intended audience, according to RFC 8707 Section 2."
  it('refuses an active token whose answer has no aud', async () => {
    const { url } = await introspection((res) => json(res, active({ aud: undefined })));
    const error = await failure(verifier(url)());
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.code).toBe('invalid_token');
    expect(error?.message).toContain('aud');
  });

  it('matches aud against the resource, or the audiences option', async () => {
    const { url } = await introspection((res) => json(res, active({ aud: ['urn:other', 'urn:api'] })));
    expect((await failure(verifier(url, { cache: false })()))?.code).toBe('invalid_token');
    const info = await verifier(url, { audiences: ['urn:api'] })();
    expect(info.scopes).toEqual(['mcp:tools']);
  });

  it('checks nbf and exp with the clock tolerance', async () => {
    let claims = active({ nbf: now() + 60 });
    const { url } = await introspection((res) => json(res, claims));
    const verify = verifier(url, { cache: false });
    const early = await failure(verify());
    expect(early?.code).toBe('invalid_token');
    expect(early?.message).toContain('not valid yet');
    claims = active({ nbf: now() + 3 }); // within the default 5 s tolerance
    expect((await verify()).clientId).toBe('c');
    claims = active({ exp: now() - 60 });
    expect((await failure(verify()))?.message).toContain('expired');
  });
});

describe('introspectionVerifier: an endpoint in trouble is 503, bounded in time and size', () => {
  it('gives up on a hanging endpoint after timeoutMs', async () => {
    const { url } = await introspection(() => {}); // never answers
    const started = Date.now();
    const error = await failure(verifier(url, { timeoutMs: 300 })());
    expect(error?.code).toBe('verifier_unavailable');
    expect(error?.message).toContain('timeoutMs');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('gives up on a body that stalls after the headers', async () => {
    const { url } = await introspection((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"active":true,');
    });
    const error = await failure(verifier(url, { timeoutMs: 300 })());
    expect(error?.code).toBe('verifier_unavailable');
    expect(error?.message).toContain('timeoutMs');
  });

  it('stops reading past maxResponseBytes (a streamed 8 MB answer is refused, not buffered)', async () => {
    const pad = 'x'.repeat(64 * 1024);
    let written = 0;
    let closed = false;
    const { url } = await introspection((res) => {
      res.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify(active()).slice(0, -1)},"pad":"`);
      const pump = () => {
        while (!closed && written < 8 * 1024 * 1024) {
          written += pad.length;
          if (!res.write(pad)) return void res.once('drain', pump);
        }
        if (!closed) res.end('"}');
      };
      pump();
    });
    const error = await failure(verifier(url)());
    expect(error?.code).toBe('verifier_unavailable');
    expect(error?.message).toContain('maxResponseBytes');
    expect(error?.message).toContain(String(DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES));
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000 });
  });

  it('refuses a declared Content-Length over maxResponseBytes without reading it', async () => {
    const { url } = await introspection((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
      res.end(JSON.stringify(active({ pad: 'x'.repeat(2000) })).slice(0, 2000));
    });
    const error = await failure(verifier(url, { maxResponseBytes: 1000 })());
    expect(error?.code).toBe('verifier_unavailable');
    expect(error?.message).toContain('maxResponseBytes');
  });

  it('does not follow a redirect with the credentials and the token', async () => {
    const { url, calls } = await introspection((res, _form, req) => {
      if (req.url === '/introspect') return void res.writeHead(307, { location: '/elsewhere' }).end();
      json(res, active());
    });
    const error = await failure(verifier(url)());
    expect(error?.code).toBe('verifier_unavailable');
    expect(calls()).toBe(1);
  });

  it.each([
    ['answers 500', (res: ServerResponse) => res.writeHead(500).end('oops')],
    ['answers non-JSON', (res: ServerResponse) => res.writeHead(200).end('<html>')],
    ['answers an array', (res: ServerResponse) => json(res, [active()])],
    ['answers without "active"', (res: ServerResponse) => json(res, { aud: RESOURCE })],
    ['never answers', () => {}],
  ])('bearerAuth answers 503 and reports it when the endpoint %s', async (_name, answer) => {
    const { url } = await introspection((res) => answer(res));
    const errors: AuthError[] = [];
    const authenticate = bearerAuth({
      resource: RESOURCE,
      authorizationServers: ['https://as.example.com'],
      introspection: { endpoint: url, clientId: 'rs', clientSecret: 's', timeoutMs: 300 },
      onerror: (e) => errors.push(e),
    });
    const answer503 = await authenticate(
      new Request(RESOURCE, { method: 'POST', headers: { authorization: 'Bearer tok' } }),
    );
    expect((answer503 as Response).status).toBe(503);
    expect(errors.map((e) => e.code)).toEqual(['verifier_unavailable']);
  });
});

describe('introspectionVerifier: answers are cached, within bounds', () => {
  it('asks once per token within the TTL, again after it, and never past the token exp', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let shortExp: number | undefined;
    const { url, calls } = await introspection((res, form) => {
      if (form.get('token') === 'short') shortExp ??= now() + 10;
      json(res, active(form.get('token') === 'short' ? { exp: shortExp } : {}));
    });
    const verify = verifier(url);
    await verify();
    await verify();
    expect(calls()).toBe(1);
    vi.setSystemTime(Date.now() + (DEFAULT_INTROSPECTION_CACHE_TTL_SEC + 1) * 1000);
    await verify();
    expect(calls()).toBe(2);
    // A token expiring before the TTL is cached only until its exp (then asked, and refused).
    await verify('short');
    vi.setSystemTime(Date.now() + 16 * 1000);
    expect((await failure(verify('short')))?.message).toContain('expired');
    expect(calls()).toBe(4);
  });

  it('caches an inactive answer briefly, keeps at most maxEntries, and cache: false asks every time', async () => {
    const { url, calls } = await introspection((res, form) =>
      json(res, form.get('token') === 'revoked' ? { active: false } : active()),
    );
    const verify = verifier(url, { cache: { maxEntries: 2 } });
    expect((await failure(verify('revoked')))?.code).toBe('invalid_token');
    expect((await failure(verify('revoked')))?.code).toBe('invalid_token');
    expect(calls()).toBe(1);
    await verify('a');
    await verify('b');
    await verify('c'); // pushes out 'a'
    expect(calls()).toBe(4);
    await verify('c');
    await verify('a');
    expect(calls()).toBe(5);
    const uncached = verifier(url, { cache: false });
    await uncached('a');
    await uncached('a');
    expect(calls()).toBe(7);
  });

  it('asks once for concurrent requests with the same token', async () => {
    const held: ServerResponse[] = [];
    const { url, calls } = await introspection((res) => held.push(res));
    const verify = verifier(url);
    const pending = Promise.all([verify(), verify(), verify(), verify(), verify()]);
    await vi.waitFor(() => expect(held.length).toBe(1), { timeout: 10_000 });
    for (const res of held) json(res, active());
    expect((await pending).map((info) => info.clientId)).toEqual(['c', 'c', 'c', 'c', 'c']);
    expect(calls()).toBe(1);
  });
});
