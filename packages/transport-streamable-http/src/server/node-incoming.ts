import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { PayloadTooLargeError, readBoundedEvents, readBoundedText } from '@x/protocol/http';
import type { HeaderReader, HttpIncoming } from './http-incoming.js';

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

/** The body a framework's parser already read (`express.json()`, Fastify), as text; else undefined. */
function parsedBody(req: IncomingMessage): string | undefined {
  const parsed = (req as { body?: unknown }).body;
  if (parsed === undefined || !req.readableEnded) return undefined;
  return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
}

/** The request's Host and target make no URL (e.g. `Host: [`): answered 400 by the adapter. */
export class BadRequestUrlError extends Error {
  override readonly name = 'BadRequestUrlError';
}

function requestUrl(scheme: string, host: string, target: string): string {
  try {
    return new URL(`${scheme}://${host}${target}`).href;
  } catch (cause) {
    throw new BadRequestUrlError(
      `the Host header and request target make no valid URL (Host: ${JSON.stringify(host)})`,
      {
        cause,
      },
    );
  }
}

/**
 * A `node:http` request as the handler core reads it (see {@link HttpIncoming}): headers straight from
 * `req.headers`, the body read from the stream with the byte limit applied while reading, and an
 * `AbortSignal` only for whoever asks for one. `toRequest()` builds the same Web `Request` the
 * Web-standard path would see (streamed body, abort on disconnect) for hooks that take one.
 */
export class NodeIncoming implements HttpIncoming {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  readonly #req: IncomingMessage;
  #abort: AbortController | undefined;
  #onDisconnect: (() => void)[] | undefined;
  #gone = false;
  #request: Request | undefined;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
    // Parsed once here so that a Host no URL can hold fails before the handler runs, as `new Request`
    // would.
    this.url = requestUrl(scheme, req.headers.host ?? 'localhost', req.url ?? '/');
    this.headers = new NodeHeaders(req.headers);
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = new AbortController();
      this.#abort = abort;
      if (this.#gone) abort.abort();
      else this.onDisconnect(() => abort.abort());
    }
    return this.#abort.signal;
  }

  get gone(): boolean {
    return this.#gone;
  }

  onDisconnect(listener: () => void): void {
    if (this.#onDisconnect === undefined) this.#onDisconnect = [listener];
    else this.#onDisconnect.push(listener);
  }

  /** The client went away before the response was complete. */
  disconnected(): void {
    if (this.#gone) return;
    this.#gone = true;
    const listeners = this.#onDisconnect;
    this.#onDisconnect = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  headerRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    this.headers.forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }

  readText(maxBytes: number): Promise<string> {
    if (this.#request !== undefined) return readBoundedText(this.#request, { maxBytes });
    const req = this.#req;
    if (this.method === 'GET' || this.method === 'HEAD') return Promise.resolve('');
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
