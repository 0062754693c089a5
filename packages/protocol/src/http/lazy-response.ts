import type { FrameStream } from './frame-stream.js';

/** A {@link LazyResponse}'s body: a whole text, a {@link FrameStream}, or none. */
export type LazyBody = string | FrameStream | undefined;

/**
 * A `Response` that holds its status, headers and body as plain data and builds the platform `Response`
 * only when someone reads more than `status`/`ok`/`statusText` of it (`headers`, `body`, `text()`,
 * `clone()` …). The HTTP servers answer with it: under `toNodeHandler` of `@x/protocol/node` the body
 * goes straight to the socket and no platform `Response`, `Headers` or `ReadableStream` is ever made,
 * which spares Node loading its bundled fetch implementation (undici, ~9.5 MiB of RSS). It implements
 * the interface rather than subclassing the platform class: a subclass must call the platform
 * constructor, which loads that implementation and costs ~100× per response.
 *
 * `headerRecord` (lower-case names) may be changed until the response is read; reading it builds the
 * platform response from the record, and from then on that response is the truth. A runtime that checks
 * `instanceof Response` (Deno, Bun) gets `toResponse()`.
 *
 * @example
 * ```ts
 * const response = new LazyResponse(200, { 'content-type': 'application/json' }, '{"ok":true}');
 * response.headerRecord['mcp-session-id'] = sessionId;
 * await response.json(); // { ok: true }: the platform Response is built here
 * ```
 */
export class LazyResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  /** The headers (lower-case names); see the class note on when changes take effect. */
  readonly headerRecord: Record<string, string>;
  /** The body as the server made it; read through `body`/`text()` … to get bytes. */
  readonly content: LazyBody;
  readonly redirected = false;
  readonly type: Response['type'] = 'default';
  readonly url = '';
  #response: Response | undefined;

  constructor(status: number, headerRecord: Record<string, string>, content?: LazyBody, statusText = '') {
    this.status = status;
    this.headerRecord = headerRecord;
    this.content = content;
    this.statusText = statusText;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** Whether the platform `Response` was built (someone read the headers or the body). */
  get materialized(): boolean {
    return this.#response !== undefined;
  }

  /** The platform `Response`, built once. */
  toResponse(): Response {
    if (this.#response !== undefined) return this.#response;
    const content = this.content;
    const body = content === undefined ? null : typeof content === 'string' ? content : content.stream;
    this.#response = new Response(body, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headerRecord,
    });
    return this.#response;
  }

  get headers(): Headers {
    return this.toResponse().headers;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.toResponse().body;
  }

  get bodyUsed(): boolean {
    return this.#response?.bodyUsed ?? false;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.toResponse().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.toResponse().blob();
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.toResponse().bytes();
  }

  formData(): Promise<FormData> {
    return this.toResponse().formData();
  }

  json(): Promise<unknown> {
    return this.toResponse().json();
  }

  text(): Promise<string> {
    return this.toResponse().text();
  }

  clone(): Response {
    return this.toResponse().clone();
  }
}

/**
 * The platform `Response` for a runtime: a {@link LazyResponse} is built, any other passes through.
 *
 * @example
 * ```ts
 * Deno.serve(async (request) => toPlatformResponse(await endpoint.handle(request)));
 * ```
 */
export function toPlatformResponse(response: Response): Response {
  return response instanceof LazyResponse ? response.toResponse() : response;
}
