import { type Interceptor, type JSONRPCRequest, McpError, type RequestContext } from '@x/protocol/core';
import { defaultCallerKey, principalOf, RateLimiter, type RateLimiterOptions } from '@x/protocol/http';

/**
 * The JSON-RPC error code of a refused request: in the range JSON-RPC 2.0 leaves to implementations
 * ("-32000 to -32099 Server error"), ending in 29 as a nod to HTTP 429. Its `data` is
 * `{ retryAfterMs }`.
 *
 * @example
 * ```ts
 * if (error instanceof McpError && error.code === RATE_LIMITED) await sleep(error.data.retryAfterMs);
 * ```
 */
export const RATE_LIMITED = -32029;

/**
 * Options of {@link rateLimit}: the token bucket (`perSecond`, `burst`, `maxKeys`: `RateLimiterOptions`,
 * default `DEFAULT_RATE_LIMIT`, 10/s, burst 50, 10 000 callers) and who a caller is.
 *
 * @example
 * ```ts
 * rateLimit({ perSecond: 5, burst: 20, exempt: (request) => request.method === 'ping' });
 * ```
 */
export interface RateLimitOptions extends RateLimiterOptions {
  /**
   * The bucket a request draws from. Default {@link callerKey}: the authenticated principal
   * (`principalOf` of `@x/protocol/http`: `authInfo.clientId` and its `extra.sub`/`subject`/`userId`),
   * else the transport session (`Mcp-Session-Id`), else one bucket for the connection's anonymous
   * callers. Return undefined to let a request through unmetered.
   */
  key?: ((request: JSONRPCRequest, ctx: RequestContext) => string | undefined) | undefined;
  /**
   * Requests never limited. Default: `initialize` and `server/discover` (so a client of either era can
   * always start) and `ping`.
   */
  exempt?: ((request: JSONRPCRequest) => boolean) | undefined;
}

/**
 * The default caller identity of {@link rateLimit}: who is signed in (`p:` + `principalOf`), else which
 * session (`s:`), else the client address the transport resolved (`a:`; `RequestInfo.clientAddress`,
 * through its `trustedProxies`), else everyone anonymous.
 *
 * @example
 * ```ts
 * rateLimit({ key: (request, ctx) => `${callerKey(request, ctx)}:${request.method}` }); // per method too
 * ```
 */
export function callerKey(_request: JSONRPCRequest, ctx: RequestContext): string {
  const auth = ctx.authInfo;
  // `p:` + the JSON-encoded principal, the key the transports' session rate limits use: no clientId or
  // user can spell another pair's key, nor a session's (`s:`).
  if (auth !== undefined) return defaultCallerKey({ principal: principalOf(auth), clientAddress: undefined });
  if (ctx.sessionId !== undefined) return `s:${ctx.sessionId}`;
  // A stateless (2026-07-28) anonymous request: its client address (read through the transport's
  // trustedProxies), so one flood does not spend every anonymous caller's budget.
  const address = ctx.requestInfo?.clientAddress;
  return address === undefined
    ? 'anonymous'
    : defaultCallerKey({ principal: undefined, clientAddress: address });
}

// `server/discover` is the 2026-07-28 client's `initialize`: limited, a client past its budget could not
// even connect to learn it is limited.
const DEFAULT_EXEMPT = (request: JSONRPCRequest): boolean =>
  request.method === 'initialize' || request.method === 'server/discover' || request.method === 'ping';

/**
 * A server interceptor limiting each caller's requests with a token bucket (`RateLimiter` of
 * `@x/protocol/http`, the one the HTTP transports use for new sessions). A request past its caller's
 * budget runs no handler and is answered with JSON-RPC error `RATE_LIMITED` (-32029), whose message
 * names the options and whose `data.retryAfterMs` says when the next one will pass.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'search', version: '1.0.0' });
 * server.use(rateLimit({ perSecond: 20, burst: 40 }));
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): Interceptor {
  const limiter = new RateLimiter(options);
  const key = options.key ?? callerKey;
  const exempt = options.exempt ?? DEFAULT_EXEMPT;
  return {
    incomingRequest(request, ctx, next) {
      if (exempt(request)) return next(request);
      const caller = key(request, ctx);
      if (caller === undefined) return next(request);
      const retryAfterMs = limiter.take(caller);
      if (retryAfterMs === 0) return next(request);
      throw new McpError(
        RATE_LIMITED,
        `Rate limit exceeded for ${request.method}: more than rateLimit.perSecond (${limiter.perSecond}) ` +
          `requests per second beyond a burst of rateLimit.burst (${limiter.burst}); retry in ${retryAfterMs} ms`,
        { retryAfterMs },
      );
    },
  };
}
