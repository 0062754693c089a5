/// <reference types="node" />
// The build compiles @x/protocol without Node types (`types: []`); only this Node-only subpath loads them.
import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HeaderReader, HttpIncoming } from '../http/http-incoming.js';
import { PayloadTooLargeError, readBoundedEvents, readBoundedText } from '../http/read-bounded-body.js';

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

/** `Headers`-like reads over node's already lower-cased header record. */
class NodeHeaders implements HeaderReader {
  readonly #raw: IncomingHttpHeaders;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    return headerValue(this.#raw[name.toLowerCase()]);
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  forEach(callback: (value: string, name: string) => void): void {
    // In arrival order (`Headers` sorts; nothing here depends on order). HTTP/2 pseudo-headers
    // (`:authority`) are no header names.
    for (const name in this.#raw) {
      const value = headerValue(this.#raw[name]);
      if (value !== null && name.charCodeAt(0) !== 0x3a) callback(value, name);
    }
  }
}

/**
 * The body a framework's parser already read, as text; undefined when the stream is still to be read.
 * Express (`express.json()`, `express.text()`, `express.raw()`) leaves it in `req.body`; Fastify users
 * copy `request.body` to `request.raw.body`. Only a consumed stream counts: body-parser 1.x sets
 * `req.body = {}` for a content type it skipped, and leaves the stream unread.
 */
function parsedBody(req: IncomingMessage & { body?: unknown }): string | undefined {
  const parsed = req.body;
  if (parsed === undefined || !req.readableEnded) return undefined;
  if (typeof parsed === 'string') return parsed;
  // A raw body parser's Buffer: decoded here so the core still sees (and size-checks) the same text.
  if (parsed instanceof Uint8Array) return new TextDecoder().decode(parsed);
  return JSON.stringify(parsed);
}

/**
 * The request's Host and target make no URL (e.g. `Host: [`): the Node adapter answers 400.
 *
 * @example
 * ```ts
 * try { new NodeIncoming(req, res); }
 * catch (error) { if (error instanceof BadRequestUrlError) sendJsonRpcError(res, 400, -32600, error.message); }
 * ```
 */
export class BadRequestUrlError extends Error {
  override readonly name = 'BadRequestUrlError';
}

function requestUrl(scheme: string, host: string, target: string): URL {
  try {
    return new URL(`${scheme}://${host}${target}`);
  } catch (cause) {
    throw new BadRequestUrlError(
      `the Host header and request target make no valid URL (Host: ${JSON.stringify(host)})`,
      { cause },
    );
  }
}

/**
 * A `node:http` request as a server core reads it (see `HttpIncoming` of `@x/protocol/http`): headers
 * straight from `req.headers`, the body read from the stream with the byte limit applied while reading
 * (or taken from `req.body` when a framework's parser already read it), and an `AbortSignal` only for
 * whoever asks for one. `toRequest()` builds the same Web `Request` the Web-standard path would see
 * (streamed body, abort on disconnect) for hooks that take one. The one Node request adapter of every
 * HTTP transport.
 *
 * @example
 * ```ts
 * createServer(async (req, res) => {
 *   const incoming = new NodeIncoming(req, res); // throws BadRequestUrlError for `Host: [`
 *   const text = await incoming.readText(1024 * 1024);
 *   res.end(text.length.toString());
 * });
 * ```
 */
export class NodeIncoming implements HttpIncoming {
  readonly method: string;
  readonly url: URL;
  readonly headers: HeaderReader;
  readonly #req: IncomingMessage & { body?: unknown };
  /** `req.headers`, read once: node builds it in a getter. */
  readonly #rawHeaders: IncomingHttpHeaders;
  readonly #res: ServerResponse;
  #abort: AbortController | undefined;
  #onDisconnect: (() => void)[] | undefined;
  #listening = false;
  #gone = false;
  #request: Request | undefined;

  /** Throws {@link BadRequestUrlError} when the request line and `Host` make no URL. */
  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? 'GET';
    const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
    // Parsed once here so that a Host no URL can hold fails before the handler runs, as `new Request`
    // would.
    const rawHeaders = req.headers;
    this.#rawHeaders = rawHeaders;
    this.url = requestUrl(scheme, rawHeaders.host ?? 'localhost', req.url ?? '/');
    this.headers = new NodeHeaders(rawHeaders);
  }

  get localAddress(): string | undefined {
    return this.#req.socket.localAddress;
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = new AbortController();
      this.#abort = abort;
      this.onDisconnect(() => abort.abort());
    }
    return this.#abort.signal;
  }

  get gone(): boolean {
    return this.#gone;
  }

  onDisconnect(listener: () => void): void {
    if (this.#gone) {
      listener();
      return;
    }
    if (this.#onDisconnect === undefined) this.#onDisconnect = [listener];
    else this.#onDisconnect.push(listener);
    if (this.#listening) return;
    this.#listening = true;
    const res = this.#res;
    // `close` also follows a response that was sent in full; only an unfinished one is a disconnect.
    res.once('close', () => {
      if (!res.writableFinished) this.#disconnected();
    });
  }

  #disconnected(): void {
    if (this.#gone) return;
    this.#gone = true;
    const listeners = this.#onDisconnect;
    this.#onDisconnect = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  headerRecord(): Record<string, string> {
    // Null prototype: a header named `__proto__` (a valid token) is stored like any other name.
    const out: Record<string, string> = Object.create(null);
    // The loop of `NodeHeaders.forEach`, without a callback per header: this runs for every POST.
    const raw = this.#rawHeaders;
    for (const name in raw) {
      const value = headerValue(raw[name]);
      if (value !== null && name.charCodeAt(0) !== 0x3a) out[name] = value;
    }
    return out;
  }

  readText(maxBytes: number): Promise<string> {
    if (this.#request !== undefined) return readBoundedText(this.#request, { maxBytes });
    if (this.method === 'GET' || this.method === 'HEAD') return Promise.resolve('');
    const req = this.#req;
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      return Buffer.byteLength(parsed) > maxBytes
        ? Promise.reject(new PayloadTooLargeError(maxBytes))
        : Promise.resolve(parsed);
    }
    return readBoundedEvents(req, { maxBytes });
  }

  toRequest(): Request {
    if (this.#request !== undefined) return this.#request;
    const req = this.#req;
    const headers = new Headers();
    this.headers.forEach((value, name) => {
      headers.set(name, value);
    });
    // `duplex: 'half'` is required by Node's fetch for a streamed request body; not in the DOM typings.
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: this.signal };
    if (this.method !== 'GET' && this.method !== 'HEAD') {
      const parsed = parsedBody(req);
      if (parsed !== undefined) {
        init.body = parsed;
        headers.set('content-length', String(Buffer.byteLength(parsed)));
      } else {
        init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
    }
    this.#request = new Request(this.url, init);
    return this.#request;
  }
}
