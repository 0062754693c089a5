import { readBoundedText } from '@x/protocol/http';

/** The header reads the server makes; `Headers` has this shape, and so does the node adapter's view. */
export interface HeaderReader {
  /** The value of a header (lower-case name), repeated values joined with `, `; null when absent. */
  get(name: string): string | null;
}

/**
 * One HTTP request as the `SseServer` core reads it. The Web-standard entry wraps a `Request`; the
 * `node:http` adapter reads the `IncomingMessage` directly, so a POST builds no `Request`, no
 * `AbortSignal` and no body stream unless the `authenticate` hook asks for a `Request`.
 */
export interface SseIncoming {
  readonly method: string;
  /** The absolute URL, parsed once (it goes on to `MessageExtraInfo.requestInfo`). */
  readonly url: URL;
  readonly headers: HeaderReader;
  /** The headers as a plain record (for `MessageExtraInfo.requestInfo`). */
  headerRecord(): Record<string, string>;
  /**
   * The body as UTF-8 text, at most `maxBytes` of it: throws `PayloadTooLargeError` beyond, `TypeError`
   * for bytes that are not UTF-8 (the contract of `readBoundedText`).
   */
  readText(maxBytes: number): Promise<string>;
  /** Calls `listener` once when the client goes away before the response is complete. */
  onDisconnect(listener: () => void): void;
  /** The request as a Web `Request` (for user hooks that take one); built once, on first use. */
  toRequest(): Request;
  /** The socket's local address when the runtime tells it (DNS-rebinding Host checks: loopback only). */
  readonly localAddress: string | undefined;
  /** The caller's address when the runtime tells it (the rate-limit key of an anonymous caller). */
  readonly remoteAddress: string | undefined;
}

/**
 * What a runtime may tell `SseServer.handle` about the connection a `Request` came on.
 *
 * @example
 * ```ts
 * Deno.serve((request, info) => sse.handle(request, { remoteAddress: info.remoteAddr.hostname }));
 * ```
 */
export interface SseConnectionInfo {
  /** The client's IP address: the key of its session rate limit when it is not authenticated. */
  remoteAddress?: string | undefined;
  /** The server socket's address: a non-loopback one turns the default Host check off. */
  localAddress?: string | undefined;
}

/** The `SseIncoming` of a Web `Request`. */
export function webIncoming(request: Request, info: SseConnectionInfo | undefined): SseIncoming {
  return {
    localAddress: info?.localAddress,
    remoteAddress: info?.remoteAddress,
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    headerRecord: () => Object.fromEntries(request.headers),
    readText: (maxBytes) => readBoundedText(request, { maxBytes }),
    onDisconnect: (listener) => {
      // Runtimes abort the request signal when the client disconnects; some only cancel the response
      // body, which the event stream's cancel() handles.
      if (request.signal.aborted) listener();
      else request.signal.addEventListener('abort', listener, { once: true });
    },
    toRequest: () => request,
  };
}
