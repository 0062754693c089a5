import { readBoundedText } from './read-bounded-body.js';

/** The header reads a server makes; `Headers` has this shape, and so does the Node adapter's view. */
export interface HeaderReader {
  /** The value of a header (lower-case name), repeated values joined with `, `; null when absent. */
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * What a runtime may tell a Web-standard handler about the connection a `Request` came on. The Node
 * adapter (`toNodeHandler` of `@x/protocol/node`) fills it in from the socket.
 *
 * @example
 * ```ts
 * Deno.serve((request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname }));
 * ```
 */
export interface ConnectionInfo {
  /** The server socket's address: a non-loopback one turns the default Host check off. */
  localAddress?: string | undefined;
  /** The client's IP address: the key of its rate limit when it is not authenticated. */
  remoteAddress?: string | undefined;
}

/**
 * A Web-standard HTTP handler, as `createStreamableHttpHandler` and `createSseHandler` return.
 *
 * @example
 * ```ts
 * const logged: WebHandler = (request, info) => {
 *   console.log(request.method, new URL(request.url).pathname);
 *   return handler(request, info);
 * };
 * ```
 */
export type WebHandler = (request: Request, info?: ConnectionInfo) => Promise<Response>;

/**
 * A {@link WebHandler} that can also serve an {@link HttpIncoming} directly: `toNodeHandler` of
 * `@x/protocol/node` calls `handleIncoming` with its view of the `IncomingMessage`, so no `Request` is
 * built, and writes a `LazyResponse` answer straight to the socket. `createStreamableHttpHandler` and
 * `createSseHandler` return one; a handler of your own may too.
 *
 * @example
 * ```ts
 * const handler: IncomingHandler = Object.assign(
 *   (request: Request) => handler.handleIncoming(webIncoming(request)),
 *   { handleIncoming: async (incoming: HttpIncoming) => new LazyResponse(200, {}, incoming.method) },
 * );
 * createServer(toNodeHandler(handler));
 * ```
 */
export interface IncomingHandler extends WebHandler {
  handleIncoming(incoming: HttpIncoming): Promise<Response>;
}

/**
 * One HTTP request as a server core reads it. The Web-standard entry wraps a `Request`
 * ({@link webIncoming}); the Node adapter (`NodeIncoming` of `@x/protocol/node`) reads the
 * `IncomingMessage` directly, so the hot path builds no `Request`, no `AbortSignal` and no body stream
 * unless something (an `authenticate` hook) asks for a `Request`.
 *
 * @example
 * ```ts
 * const incoming: HttpIncoming = webIncoming(request, { remoteAddress: '127.0.0.1' });
 * const text = await incoming.readText(4 * 1024 * 1024);
 * ```
 */
export interface HttpIncoming {
  readonly method: string;
  /** The absolute URL, parsed once. */
  readonly url: URL;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away before the response is complete. */
  readonly signal: AbortSignal;
  /** The client went away before the response was complete. */
  readonly gone: boolean;
  /**
   * Calls `listener` once when the client goes away before the response is complete (at once when it
   * already has): what `signal` tells, without an `AbortSignal` (on Node one costs more than the rest of
   * a small request).
   */
  onDisconnect(listener: () => void): void;
  /** The headers as a plain null-prototype record (for `MessageExtraInfo.requestInfo`). */
  headerRecord(): Record<string, string>;
  /**
   * The body as UTF-8 text, at most `maxBytes` of it: throws `PayloadTooLargeError` beyond, `TypeError`
   * for bytes that are not UTF-8 (the contract of `readBoundedText`).
   */
  readText(maxBytes: number): Promise<string>;
  /** The request as a Web `Request` (for user hooks that take one); built once, on first use. */
  toRequest(): Request;
  /** The socket's local address when the runtime tells it (DNS-rebinding Host checks: loopback only). */
  readonly localAddress: string | undefined;
  /** The caller's address when the runtime tells it (the rate-limit key of an anonymous caller). */
  readonly remoteAddress: string | undefined;
}

/**
 * The {@link HttpIncoming} of a Web `Request`.
 *
 * @example
 * ```ts
 * const incoming = webIncoming(request, info);
 * if (incoming.method !== 'POST') return new Response(null, { status: 405 });
 * ```
 */
export function webIncoming(request: Request, info?: ConnectionInfo): HttpIncoming {
  const url = new URL(request.url);
  return {
    method: request.method,
    url,
    headers: request.headers,
    get signal() {
      return request.signal;
    },
    get gone() {
      return request.signal.aborted;
    },
    onDisconnect: (listener) => {
      // Runtimes abort the request signal when the client disconnects; some only cancel the response
      // body, which the response stream's cancel() handles.
      if (request.signal.aborted) listener();
      else request.signal.addEventListener('abort', listener, { once: true });
    },
    headerRecord: () => {
      // Null prototype: a header named `__proto__` (a valid token) is stored like any other name.
      const out: Record<string, string> = Object.create(null);
      request.headers.forEach((value, name) => {
        out[name] = value;
      });
      return out;
    },
    readText: (maxBytes) => readBoundedText(request, { maxBytes }),
    toRequest: () => request,
    localAddress: info?.localAddress,
    remoteAddress: info?.remoteAddress,
  };
}
