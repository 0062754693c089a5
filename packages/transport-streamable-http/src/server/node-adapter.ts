import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HandlerContext } from './options.js';

/**
 * A Web-standard handler, as `createStreamableHttpHandler` returns.
 *
 * @example
 * ```ts
 * // Any `(request) => Promise<Response>` can be mounted on node:http, e.g. one that logs first.
 * const logged: WebHandler = (request, context) => {
 *   console.log(request.method, new URL(request.url).pathname);
 *   return handler(request, context);
 * };
 * const listener = toNodeHandler(logged);
 * ```
 */
export type WebHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

/**
 * A `node:http` request listener, also usable as Express/Fastify/Hono-on-Node middleware.
 *
 * @example
 * ```ts
 * const listener: NodeHandler = toNodeHandler(handler);
 * createServer(listener).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', listener)
 * ```
 */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? 'localhost';
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: req.method ?? 'GET', headers, signal };
  const parsed = (req as { body?: unknown }).body;
  if (req.method === 'GET' || req.method === 'HEAD') {
    // no body
  } else if (parsed !== undefined && req.readableEnded) {
    // A body parser (express.json(), Fastify) already consumed the stream: use what it parsed.
    const text = typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
    init.body = text;
    headers.set('content-length', String(new TextEncoder().encode(text).byteLength));
  } else {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(`${scheme}://${host}${req.url ?? '/'}`, init);
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // A finite body (JSON, errors) goes out in one write with its length.
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers).end(body);
    return;
  }
  res.writeHead(response.status, headers);
  // SSE frames must leave at once, not wait for the first body write.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    // The stream errored (e.g. a stalled reader was dropped): cut the connection, do not end it cleanly.
    res.destroy();
  }
}

/**
 * Adapts the Web-standard handler to `node:http` (and so to Express, Fastify via `reply.hijack()`, or
 * Hono's node server): streams the request body in (or takes `req.body` when a body parser already read
 * the stream) and the response out, and turns a client disconnect
 * into an abort of `request.signal` and a cancel of the response stream (which is how a modern request
 * learns it was cancelled). It also reports the local address, which decides the DNS-rebinding default.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const handler = createStreamableHttpHandler({ onsession: (t) => server.connect(t) });
 * createServer(toNodeHandler(handler)).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', toNodeHandler(handler));
 * ```
 */
export function toNodeHandler(handler: WebHandler): NodeHandler {
  return (req, res, next) => {
    const abort = new AbortController();
    // `close` on the response fires both after a normal end and on a dropped connection; only the
    // latter (response not finished) is a disconnect.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const context: HandlerContext = { localAddress: req.socket.localAddress };
    void (async () => {
      try {
        const response = await handler(toRequest(req, abort.signal), context);
        await writeResponse(response, res);
      } catch (error) {
        if (next !== undefined) next(error);
        else if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }
    })();
  };
}
