import { PayloadTooLargeError } from '@x/protocol/http';
import type { Dispatcher } from 'undici';
import type { HttpReply } from './requester.js';

/** Most bytes `discard()` reads to keep the connection; past that it closes the connection instead. */
const DISCARD_LIMIT = 128 * 1024;

type ReplyHeaders = Record<string, string | string[] | undefined>;

/**
 * A reply read straight from undici's dispatcher callbacks: body chunks are buffered until the
 * transport chooses how to read them (text, a stream of chunks, or nothing), then handed over as they
 * arrive — no Node or WHATWG stream per reply.
 */
export class UndiciReply implements HttpReply {
  readonly status: number;
  #headers: ReplyHeaders;
  #controller: Dispatcher.DispatchController;
  #chunks: Buffer[] = [];
  /** Bytes in `#chunks`. */
  #buffered = 0;
  /** Most bytes `text()` may collect (its `maxBytes`). */
  #limit = Number.POSITIVE_INFINITY;
  #state: 'open' | 'ended' | 'failed' = 'open';
  #error: unknown;
  #sink: ((chunk: Uint8Array) => void) | undefined;
  #discarded = 0;
  #discarding = false;
  #waiter: { resolve(): void; reject(error: unknown): void } | undefined;

  constructor(status: number, headers: ReplyHeaders, controller: Dispatcher.DispatchController) {
    this.status = status;
    this.#headers = headers;
    this.#controller = controller;
  }

  header(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Dispatcher side: a body chunk arrived. */
  push(chunk: Buffer): void {
    if (this.#sink !== undefined) {
      try {
        this.#sink(chunk);
      } catch (error) {
        this.#controller.abort(error as Error);
      }
    } else if (this.#discarding) {
      this.#discarded += chunk.byteLength;
      if (this.#discarded > DISCARD_LIMIT) this.#controller.abort(new Error('Reply body discarded'));
    } else {
      this.#chunks.push(chunk);
      this.#buffered += chunk.byteLength;
      if (this.#buffered > this.#limit) this.#overflow();
    }
  }

  /** The body outgrew `text()`'s limit: stop reading it (the connection is dropped) and fail. */
  #overflow(): void {
    const error = new PayloadTooLargeError(this.#limit);
    this.#chunks = [];
    this.#buffered = 0;
    this.fail(error);
    this.#controller.abort(error);
  }

  /** Dispatcher side: the body is complete. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#waiter?.resolve();
  }

  /** Dispatcher side: the body broke (or the exchange was aborted). */
  fail(error: unknown): void {
    if (this.#state !== 'open') return;
    this.#state = 'failed';
    this.#error = error;
    this.#waiter?.reject(error);
  }

  async text(maxBytes?: number): Promise<string> {
    if (maxBytes !== undefined) {
      this.#limit = maxBytes;
      if (Number(this.header('content-length') ?? Number.NaN) > maxBytes || this.#buffered > maxBytes) {
        this.#overflow();
      }
    }
    await this.#settled();
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#buffered = 0;
    if (chunks.length === 0) return '';
    if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8');
    return Buffer.concat(chunks).toString('utf8');
  }

  stream(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    const buffered = this.#chunks;
    this.#chunks = [];
    this.#buffered = 0;
    try {
      for (const chunk of buffered) onChunk(chunk);
    } catch (error) {
      this.#controller.abort(error as Error);
      return Promise.reject(error);
    }
    this.#sink = onChunk;
    return this.#settled();
  }

  async discard(): Promise<void> {
    this.#chunks = [];
    this.#buffered = 0;
    if (this.#state !== 'open') return;
    this.#discarding = true;
    await this.#settled().catch(() => {});
  }

  headers(): Headers {
    const out = new Headers();
    for (const [name, value] of Object.entries(this.#headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) out.append(name, v);
      else out.set(name, value);
    }
    return out;
  }

  toResponse(): Response {
    const out = this.headers();
    const nullBody = this.status === 204 || this.status === 304 || this.status < 200;
    const body = nullBody
      ? null
      : new ReadableStream<Uint8Array>({
          start: (controller) => {
            this.stream((chunk) => controller.enqueue(chunk)).then(
              () => controller.close(),
              (error: unknown) => controller.error(error),
            );
          },
        });
    return new Response(body, { status: this.status, headers: out });
  }

  #settled(): Promise<void> {
    if (this.#state === 'ended') return Promise.resolve();
    if (this.#state === 'failed') return Promise.reject(this.#error);
    return new Promise<void>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }
}
