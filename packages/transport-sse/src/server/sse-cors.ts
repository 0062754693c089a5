import type { CorsOptions, HeaderReader } from '@x/protocol/http';

const ALLOW_METHODS = 'GET, POST, OPTIONS';
// A browser reads `WWW-Authenticate` of a 401 to start authorization.
const EXPOSE_HEADERS = 'WWW-Authenticate';
const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, MCP-Protocol-Version, Last-Event-ID';

/**
 * CORS for the legacy SSE handler (the `cors` option): the headers each response to an allowed origin
 * carries, and the answer to a preflight. The handler builds them per request only when `cors` is set.
 */
export class SseCors {
  readonly #origins: '*' | ReadonlySet<string>;
  readonly #credentials: boolean;
  readonly #maxAge: string;

  constructor(options: CorsOptions) {
    const origin = options.origin ?? '*';
    this.#origins = origin === '*' ? '*' : new Set(typeof origin === 'string' ? [origin] : origin);
    this.#credentials = options.credentials === true;
    this.#maxAge = String(options.maxAge ?? 600);
  }

  /** The CORS response headers for this request, or undefined when its origin is not allowed. */
  headersFor(headers: HeaderReader): Record<string, string> | undefined {
    const origin = headers.get('origin');
    let allowed: string | undefined;
    if (this.#origins === '*') allowed = this.#credentials && origin !== null ? origin : '*';
    else if (origin !== null && this.#origins.has(origin)) allowed = origin;
    if (allowed === undefined) return undefined;
    const cors: Record<string, string> = {
      'access-control-allow-origin': allowed,
      'access-control-expose-headers': EXPOSE_HEADERS,
    };
    if (allowed !== '*') cors['vary'] = 'Origin';
    if (this.#credentials) cors['access-control-allow-credentials'] = 'true';
    return cors;
  }

  /** The extra headers of a preflight's 204 (on top of {@link headersFor}). */
  preflightHeaders(headers: HeaderReader): Record<string, string> {
    return {
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-max-age': this.#maxAge,
      // Reflecting the requested headers admits whatever a client's `headers` option adds.
      'access-control-allow-headers': headers.get('access-control-request-headers') ?? ALLOW_HEADERS,
    };
  }
}
