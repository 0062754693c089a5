import type { IncomingMessage, ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { ErrorCode } from '@x/protocol';
import { jsonRpcErrorText } from '@x/protocol/http';
import { NODE_DISPATCH, type NodeDispatch } from '../server/node-dispatch.js';
import type { SseConnectionInfo } from '../server/sse-incoming.js';
import { ACCEPTED, type SseReply } from '../server/sse-reply.js';
import { NodeIncoming } from './node-incoming.js';
import { NodeSseSink } from './node-sse-sink.js';
import { writeWebResponse } from './web-response.js';

/**
 * Anything with the Web-standard handler shape, e.g. `SseServer`.
 *
 * @example
 * ```ts
 * // Anything with a `handle(request)` method can be mounted, not only `SseServer`.
 * const health: WebHandler = { handle: async () => new Response('ok') };
 * const listener = createNodeHandler(health);
 * ```
 */
export interface WebHandler {
  handle: (request: Request, info?: SseConnectionInfo) => Promise<Response>;
}

/**
 * A `node:http` request handler. `parsedBody` is for frameworks whose body parser already consumed the
 * request stream (Express `req.body`, Fastify `request.body`): it is re-serialized as the body.
 *
 * @example
 * ```ts
 * const handle: NodeHandler = createNodeHandler(sse);
 * createServer((req, res) => void handle(req, res)).listen(3000, '127.0.0.1');
 * // Express, after express.json(): app.post('/sse', (req, res) => void handle(req, res, req.body));
 * ```
 */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

// Bodies up to this size with a declared length are read before the `Request` is built and handed
// over as bytes: a body stream adapted from node costs more than the round trip it carries.
const BUFFERED_BODY_BYTES = 64 * 1024;

function toHeaders(req: IncomingMessage): Array<[string, string]> {
  // Name/value pairs: `Request` copies them into its own `Headers` in one pass.
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:authority`, …) are not valid Fetch header names.
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.push([name, item]);
    else headers.push([name, value]);
  }
  return headers;
}

/** The whole body of a request that declared a small `Content-Length`; undefined to stream it. */
function smallBody(req: IncomingMessage): Promise<Buffer> | undefined {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (!(declared <= BUFFERED_BODY_BYTES) || req.readableEnded || req.readableDidRead) return undefined;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    // The listeners stay until the request is done (it is read once): a flag is cheaper than removing
    // them per request.
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.byteLength;
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length));
    });
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    // `close` follows every `end`: only build the error when it means something.
    req.on('close', () => {
      if (settled) return;
      settled = true;
      reject(new Error('The request body ended early: the client went away'));
    });
  });
}

async function toBody(req: IncomingMessage, parsedBody: unknown): Promise<BodyInit | null> {
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  if (parsedBody === undefined) {
    const buffered = await smallBody(req);
    // Socket buffers are never shared memory, which is all `BodyInit` asks of the bytes.
    if (buffered !== undefined) return buffered as Uint8Array<ArrayBuffer>;
    return Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  if (typeof parsedBody === 'string') return parsedBody;
  // A raw body parser's Buffer: decoded here so the core still sees (and size-checks) the same text.
  if (parsedBody instanceof Uint8Array) return new TextDecoder().decode(parsedBody);
  return JSON.stringify(parsedBody);
}

/**
 * Adapts a Web-standard handler to `node:http`, Express and Fastify (`reply.raw`).
 *
 * An `SseServer` is served without the Web detour: the adapter reads the `IncomingMessage` and writes
 * the `ServerResponse` itself (a `Request` is built only for an `authenticate` hook or an `onsession`
 * that reads `context.request`), with every check of the Web-standard path.
 *
 * @example
 * ```ts
 * const sse = new SseServer({ onsession: (transport) => mcpServer.connect(transport) });
 * const handler = createNodeHandler(sse);
 * http.createServer((req, res) => void handler(req, res)).listen(3000, '127.0.0.1');
 * // Express, after express.json(): app.all('/sse', (req, res) => handler(req, res, req.body));
 * ```
 */
export function createNodeHandler(server: WebHandler): NodeHandler {
  const dispatch = (server as { [NODE_DISPATCH]?: NodeDispatch })[NODE_DISPATCH];
  if (dispatch !== undefined) return nodeHandlerFor(dispatch);
  return async (req, res, parsedBody) => {
    const aborted = new AbortController();
    // `close` also follows a response that was sent in full; only an unfinished one is a disconnect.
    res.once('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    let request: Request;
    try {
      const protocol = (req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
      const url = new URL(req.url ?? '/', `${protocol}://${req.headers.host ?? 'localhost'}`);
      const body = await toBody(req, parsedBody);
      // `duplex: 'half'` is required by Node's fetch for a streamed request body; not in the DOM typings.
      const init: RequestInit & { duplex: 'half' } = {
        method: req.method ?? 'GET',
        headers: toHeaders(req),
        body,
        signal: aborted.signal,
        duplex: 'half',
      };
      request = new Request(url, init);
    } catch {
      badRequest(res, req);
      return;
    }

    let response: Response;
    try {
      response = await server.handle(request, {
        remoteAddress: req.socket.remoteAddress,
        localAddress: req.socket.localAddress,
      });
    } catch {
      internalError(res);
      return;
    }
    await writeWebResponse(response, res);
  };
}

/** A JSON-RPC error body without an id, as every other transport-level refusal of the server. */
function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  const body = jsonRpcErrorText(code, message);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    })
    .end(body);
}

function badRequest(res: ServerResponse, req: IncomingMessage): void {
  // E.g. `Host: [`: no URL can be built, so no handler can look at the request.
  const host = JSON.stringify(req.headers.host ?? '');
  sendError(
    res,
    400,
    ErrorCode.InvalidRequest,
    `Bad request: the request target and Host ${host} make no URL`,
  );
}

function internalError(res: ServerResponse): void {
  sendError(res, 500, ErrorCode.InternalError, 'Internal server error');
}

const ACCEPTED_HEADERS = {
  ...ACCEPTED.headers,
  'content-length': String(Buffer.byteLength(ACCEPTED.body)),
};

/** The adapter for `SseServer`'s own entry: no `Request`, no `Response`, no streams in between. */
function nodeHandlerFor(dispatch: NodeDispatch): NodeHandler {
  return async (req, res, parsedBody) => {
    let incoming: NodeIncoming;
    try {
      incoming = new NodeIncoming(req, res, parsedBody);
    } catch {
      badRequest(res, req);
      return;
    }
    let reply: SseReply<NodeSseSink>;
    try {
      reply = await dispatch(incoming, () => new NodeSseSink(res));
    } catch {
      internalError(res);
      return;
    }
    if (reply === ACCEPTED) res.writeHead(202, ACCEPTED_HEADERS).end(ACCEPTED.body);
    else if (reply.kind === 'text') {
      const headers = { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) };
      res.writeHead(reply.status, headers).end(reply.body);
    } else if (reply.kind === 'stream') reply.sink.open();
    else await writeWebResponse(reply.response, res);
  };
}
