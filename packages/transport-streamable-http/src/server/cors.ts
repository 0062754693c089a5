import type { CorsOptions, HeaderReader } from '@x/protocol/http';
import { deferredResponse, replyOf } from './deferred-body.js';

// One shape for every HTTP handler's `cors` option (legacy SSE has it too).
export type { CorsOptions };

/** What CORS reads of a request. */
interface CorsRequest {
  readonly headers: HeaderReader;
}

const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
// A browser client must be able to read the session id and negotiated version (2025-11-25 sessions).
const EXPOSE_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';
const ALLOW_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name';

/** Adds CORS headers to responses and answers preflights. */
export class Cors {
  #origins: '*' | ReadonlySet<string>;
  #credentials: boolean;
  #maxAge: string;

  constructor(options: CorsOptions) {
    const origin = options.origin ?? '*';
    this.#origins = origin === '*' ? '*' : new Set(typeof origin === 'string' ? [origin] : origin);
    this.#credentials = options.credentials === true;
    this.#maxAge = String(options.maxAge ?? 600);
  }

  #allowOrigin(request: CorsRequest): string | undefined {
    const origin = request.headers.get('origin');
    if (this.#origins === '*') return this.#credentials && origin !== null ? origin : '*';
    return origin !== null && this.#origins.has(origin) ? origin : undefined;
  }

  /** The 204 answer to an `OPTIONS` preflight. */
  preflight(request: CorsRequest): Response {
    const response = deferredResponse(undefined, {
      status: 204,
      headers: {
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-max-age': this.#maxAge,
        // Reflecting the requested headers admits every `Mcp-Param-*` a tool may declare.
        'access-control-allow-headers':
          request.headers.get('access-control-request-headers') ?? ALLOW_HEADERS,
      },
    });
    return this.apply(request, response);
  }

  /** Adds the response headers to a response the handler (or an auth hook) built. */
  apply(request: CorsRequest, original: Response): Response {
    const origin = this.#allowOrigin(request);
    if (origin === undefined) return original;
    const reply = replyOf(original);
    if (reply !== undefined) {
      // The handler's own reply: its headers are a plain record (names lower-case).
      const headers = reply.headerRecord;
      headers['access-control-allow-origin'] = origin;
      headers['access-control-expose-headers'] = EXPOSE_HEADERS;
      if (origin !== '*')
        headers['vary'] = headers['vary'] === undefined ? 'Origin' : `${headers['vary']}, Origin`;
      if (this.#credentials) headers['access-control-allow-credentials'] = 'true';
      return original;
    }
    let response = original;
    try {
      response.headers.set('access-control-allow-origin', origin);
    } catch {
      // Headers of some responses (Response.redirect, fetched ones) are immutable: copy it.
      response = new Response(original.body, original);
      response.headers.set('access-control-allow-origin', origin);
    }
    response.headers.set('access-control-expose-headers', EXPOSE_HEADERS);
    if (origin !== '*') response.headers.append('vary', 'Origin');
    if (this.#credentials) response.headers.set('access-control-allow-credentials', 'true');
    return response;
  }
}
