/**
 * Longest a health `check` may take before it counts as unhealthy (`timeoutMs`): 5 s, under the 10 s
 * probe timeout of common load balancers, so they see a 503 rather than a timeout of their own.
 *
 * @example
 * ```ts
 * const health = createHealthCheck({ check: () => db.ping(), timeoutMs: DEFAULT_HEALTH_CHECK_TIMEOUT_MS / 5 });
 * ```
 */
export const DEFAULT_HEALTH_CHECK_TIMEOUT_MS = 5_000;

/**
 * Options of {@link createHealthCheck}.
 *
 * @example
 * ```ts
 * createHealthCheck({ path: '/readyz', check: async () => ({ ok: await db.ping(), details: { db: 'up' } }) });
 * ```
 */
export interface HealthCheckOptions {
  /** The pathname answered. Default `'/healthz'`. */
  path?: string | undefined;
  /**
   * Whether the service is healthy (200) or not (503), with optional details for the JSON body.
   * Default: always healthy (a liveness probe: the process answers). A check that throws or takes
   * longer than `timeoutMs` counts as unhealthy.
   */
  check?: (() => boolean | HealthStatus | Promise<boolean | HealthStatus>) | undefined;
  /** Longest a `check` may take, in ms. Default {@link DEFAULT_HEALTH_CHECK_TIMEOUT_MS} (5 s). */
  timeoutMs?: number | undefined;
}

/**
 * A health check's verdict.
 *
 * @example
 * ```ts
 * const status: HealthStatus = { ok: false, details: { redis: 'unreachable' } };
 * ```
 */
export interface HealthStatus {
  ok: boolean;
  details?: Record<string, unknown> | undefined;
}

/**
 * A Web-standard `/healthz` endpoint to put in front of an HTTP MCP handler (Streamable HTTP or legacy
 * SSE): it answers `GET`/`HEAD` of its path with 200 `{"status":"ok"}` (or 503 `{"status":"unhealthy"}`
 * when `check` says so) and returns `undefined` for every other request, which then goes to the MCP
 * handler. It answers before that handler's Origin/Host and `authenticate` checks on purpose: load
 * balancers and orchestrators probe without credentials. It never says more than `check` returns.
 *
 * @example
 * ```ts
 * const health = createHealthCheck();
 * const mcp = createStreamableHttpHandler({ onsession: (transport) => server.connect(transport) });
 * const handler = async (request: Request) => (await health(request)) ?? mcp(request);
 * http.createServer(toNodeHandler(handler)).listen(3000);
 * ```
 */
export function createHealthCheck(
  options: HealthCheckOptions = {},
): (request: Request) => Promise<Response> | undefined {
  const path = options.path ?? '/healthz';
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_CHECK_TIMEOUT_MS;
  const check = options.check;
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    if (new URL(request.url).pathname !== path) return undefined;
    return verdict(check, timeoutMs).then((status) => {
      const body = JSON.stringify(
        status.details === undefined
          ? { status: status.ok ? 'ok' : 'unhealthy' }
          : { status: status.ok ? 'ok' : 'unhealthy', details: status.details },
      );
      return new Response(request.method === 'HEAD' ? null : body, {
        status: status.ok ? 200 : 503,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    });
  };
}

async function verdict(check: HealthCheckOptions['check'], timeoutMs: number): Promise<HealthStatus> {
  if (check === undefined) return { ok: true };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<HealthStatus>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, details: { error: `check exceeded timeoutMs (${timeoutMs})` } }),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([Promise.resolve().then(check), timeout]);
    return typeof result === 'boolean' ? { ok: result } : result;
  } catch {
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}
