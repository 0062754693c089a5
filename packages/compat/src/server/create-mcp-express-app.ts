import express, { type Express, type NextFunction, type Request, type Response } from 'express';

/** The hosts a loopback-bound app answers to (DNS-rebinding protection, as 1.x). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/**
 * Options of `createMcpExpressApp`, as 1.x.
 *
 * @example
 * ```ts
 * createMcpExpressApp({ host: '0.0.0.0', allowedHosts: ['mcp.example.com'] });
 * ```
 */
export interface CreateMcpExpressAppOptions {
  /** The address the app will listen on. Default `'127.0.0.1'`: then only loopback `Host`s are served. */
  host?: string | undefined;
  /** `Host` names to serve (without port); overrides the loopback default. */
  allowedHosts?: string[] | undefined;
}

/**
 * The official 1.x `createMcpExpressApp` (`server/express.js`): an Express app that parses JSON bodies
 * (Express's default 100 kB limit) and, bound to loopback or given `allowedHosts`, answers any other
 * `Host` with 403. Needs `express` (a peer dependency of this entry only).
 *
 * @example
 * ```ts
 * const app = createMcpExpressApp();
 * app.post('/mcp', (req, res) => transport.handleRequest(req, res, req.body));
 * app.listen(3000);
 * ```
 */
export function createMcpExpressApp(options: CreateMcpExpressAppOptions = {}): Express {
  const host = options.host ?? '127.0.0.1';
  const app = express();
  app.use(express.json());
  const allowed = options.allowedHosts ?? (LOOPBACK_HOSTS.includes(host) ? LOOPBACK_HOSTS : undefined);
  if (allowed !== undefined) app.use(hostGuard(allowed));
  else if (host === '0.0.0.0' || host === '::') {
    console.warn(
      `createMcpExpressApp: listening on ${host} without allowedHosts leaves the app open to DNS rebinding; pass allowedHosts`,
    );
  }
  return app;
}

/** Refuses a request whose `Host` (without port) is not listed. */
function hostGuard(allowed: readonly string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.host;
    let hostname: string | undefined;
    try {
      hostname =
        header === undefined ? undefined : new URL(`http://${header}`).hostname.replace(/^\[|\]$/g, '');
    } catch {
      hostname = undefined;
    }
    if (hostname !== undefined && allowed.includes(hostname)) {
      next();
      return;
    }
    res.status(403).json({
      jsonrpc: '2.0',
      error: { code: -32000, message: `Invalid Host: ${header ?? '(none)'}` },
      id: null,
    });
  };
}
