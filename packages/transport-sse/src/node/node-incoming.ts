import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { PayloadTooLargeError, readBoundedEvents, readBoundedText } from '@x/protocol/http';
import type { HeaderReader, SseIncoming } from '../server/sse-incoming.js';

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}

/** `Headers`-like reads over node's already lower-cased header record. */
class NodeHeaders implements HeaderReader {
  readonly raw: IncomingMessage['headers'];

  constructor(raw: IncomingMessage['headers']) {
    this.raw = raw;
  }

  get(name: string): string | null {
    return headerValue(this.raw[name.toLowerCase()]);
  }
}

/** A body a framework's parser already read (Express `req.body`), as the text the core reads. */
function parsedText(parsedBody: unknown): string {
  if (typeof parsedBody === 'string') return parsedBody;
  // A raw body parser's Buffer: decoded here so the core still sees (and size-checks) the same text.
  if (parsedBody instanceof Uint8Array) return new TextDecoder().decode(parsedBody);
  return JSON.stringify(parsedBody);
}

/**
 * A `node:http` request as the `SseServer` core reads it (see {@link SseIncoming}): headers straight
 * from `req.headers`, the body read from the stream with the byte limit applied while reading, and a
 * Web `Request` (streamed body, aborted on disconnect) only for a hook that asks for one.
 */
export class NodeIncoming implements SseIncoming {
  readonly method: string;
  readonly url: URL;
  readonly headers: NodeHeaders;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #parsedBody: unknown;
  #request: Request | undefined;

  /** Throws when the request line and `Host` make no URL (the adapter answers 400). */
  constructor(req: IncomingMessage, res: ServerResponse, parsedBody: unknown) {
    this.#req = req;
    this.#res = res;
    this.#parsedBody = parsedBody;
    this.method = req.method ?? 'GET';
    const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
    this.url = new URL(`${scheme}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`);
    this.headers = new NodeHeaders(req.headers);
  }

  get localAddress(): string | undefined {
    return this.#req.socket.localAddress;
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  headerRecord(): Record<string, string> {
    // Null prototype: a header named `__proto__` (a valid token) is stored like any other name.
    const out: Record<string, string> = Object.create(null);
    const raw = this.headers.raw;
    for (const name in raw) {
      const value = headerValue(raw[name]);
      // HTTP/2 pseudo-headers (`:authority`, …) are no header names.
      if (value !== null && name.charCodeAt(0) !== 0x3a) out[name] = value;
    }
    return out;
  }

  onDisconnect(listener: () => void): void {
    const res = this.#res;
    // `close` also follows a response that was sent in full; only an unfinished one is a disconnect.
    res.once('close', () => {
      if (!res.writableFinished) listener();
    });
  }

  readText(maxBytes: number): Promise<string> {
    if (this.#request !== undefined) return readBoundedText(this.#request, { maxBytes });
    if (this.method === 'GET' || this.method === 'HEAD') return Promise.resolve('');
    if (this.#parsedBody !== undefined) {
      const text = parsedText(this.#parsedBody);
      return Buffer.byteLength(text) > maxBytes
        ? Promise.reject(new PayloadTooLargeError(maxBytes))
        : Promise.resolve(text);
    }
    const req = this.#req;
    return readBoundedEvents(req, { maxBytes });
  }

  toRequest(): Request {
    if (this.#request !== undefined) return this.#request;
    const headers = new Headers();
    const raw = this.headers.raw;
    for (const name in raw) {
      const value = raw[name];
      if (value === undefined || name.charCodeAt(0) === 0x3a) continue;
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.append(name, value);
    }
    const aborted = new AbortController();
    this.onDisconnect(() => aborted.abort());
    // `duplex: 'half'` is required by Node's fetch for a streamed request body; not in the DOM typings.
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: aborted.signal };
    if (this.method !== 'GET' && this.method !== 'HEAD') {
      if (this.#parsedBody !== undefined) init.body = parsedText(this.#parsedBody);
      else {
        init.body = Readable.toWeb(this.#req) as unknown as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
    }
    this.#request = new Request(this.url, init);
    return this.#request;
  }
}
