import type { CorsOptions } from './cors-options.js';
import type { HeaderReader } from './http-incoming.js';
import { LazyResponse } from './lazy-response.js';

/**
 * Default preflight cache lifetime (`Access-Control-Max-Age`) of the `cors` option, in seconds.
 *
 * @example
 * ```ts
 * createSseHandler({ onsession, cors: { origin: 'https://app.example.com', maxAge: 6 * DEFAULT_CORS_MAX_AGE_SECONDS } });
 * ```
 */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

/** What an endpoint admits cross-origin, beyond the user's {@link CorsOptions}. */
export interface CorsPolicy {
  /** `Access-Control-Allow-Methods` of a preflight. */
  readonly allowMethods: string;
  /** `Access-Control-Expose-Headers`: response headers a browser script may read. */
  readonly exposeHeaders: string;
  /** `Access-Control-Allow-Headers` when the preflight names none to reflect. */
  readonly allowHeaders: string;
}

/**
 * Cross-origin access for browser clients (Fetch standard, "CORS protocol"), the one implementation
 * behind the `cors` option of every HTTP server: the headers each response to an allowed origin carries,
 * and the 204 answer to a preflight. A server builds one only when `cors` is set.
 *
 * @example
 * ```ts
 * const cors = new Cors({ origin: ['https://app.example.com'] }, {
 *   allowMethods: 'GET, POST, OPTIONS',
 *   exposeHeaders: 'WWW-Authenticate',
 *   allowHeaders: 'Content-Type, Accept, Authorization',
 * });
 * if (request.method === 'OPTIONS') return cors.preflight(request);
 * return cors.apply(request, await route(request));
 * ```
 */
export class Cors {
  readonly #origins: '*' | ReadonlySet<string>;
  readonly #credentials: boolean;
  readonly #maxAge: string;
  readonly #policy: CorsPolicy;

  constructor(options: CorsOptions, policy: CorsPolicy) {
    const origin = options.origin ?? '*';
    this.#origins = origin === '*' ? '*' : new Set(typeof origin === 'string' ? [origin] : origin);
    this.#credentials = options.credentials === true;
    this.#maxAge = String(options.maxAge ?? DEFAULT_CORS_MAX_AGE_SECONDS);
    this.#policy = policy;
  }

  /** The `Access-Control-Allow-Origin` value for this request, or undefined when it is not allowed. */
  allowedOrigin(headers: HeaderReader): string | undefined {
    const origin = headers.get('origin');
    if (this.#origins === '*') return this.#credentials && origin !== null ? origin : '*';
    return origin !== null && this.#origins.has(origin) ? origin : undefined;
  }

  /** The CORS response headers for this request, or undefined when its origin is not allowed. */
  headersFor(headers: HeaderReader): Record<string, string> | undefined {
    const origin = this.allowedOrigin(headers);
    if (origin === undefined) return undefined;
    const cors: Record<string, string> = {};
    this.#addTo(cors, origin);
    return cors;
  }

  /** The 204 answer to an `OPTIONS` preflight (with the origin headers when it is allowed). */
  preflight(request: { readonly headers: HeaderReader }): LazyResponse {
    const response = new LazyResponse(204, {
      'access-control-allow-methods': this.#policy.allowMethods,
      'access-control-max-age': this.#maxAge,
      // Reflecting the requested headers admits whatever a client adds (every `Mcp-Param-*` a tool declares).
      'access-control-allow-headers':
        request.headers.get('access-control-request-headers') ?? this.#policy.allowHeaders,
    });
    const origin = this.allowedOrigin(request.headers);
    if (origin !== undefined) this.#addTo(response.headerRecord, origin);
    return response;
  }

  /** Adds the response headers to a response the server (or an auth hook) built. */
  apply(request: { readonly headers: HeaderReader }, original: Response): Response {
    const origin = this.allowedOrigin(request.headers);
    if (origin === undefined) return original;
    if (original instanceof LazyResponse && !original.materialized) {
      this.#addTo(original.headerRecord, origin);
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
    response.headers.set('access-control-expose-headers', this.#policy.exposeHeaders);
    if (origin !== '*') response.headers.append('vary', 'Origin');
    if (this.#credentials) response.headers.set('access-control-allow-credentials', 'true');
    return response;
  }

  #addTo(headers: Record<string, string>, origin: string): void {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = this.#policy.exposeHeaders;
    if (origin !== '*')
      headers['vary'] = headers['vary'] === undefined ? 'Origin' : `${headers['vary']}, Origin`;
    if (this.#credentials) headers['access-control-allow-credentials'] = 'true';
  }
}
