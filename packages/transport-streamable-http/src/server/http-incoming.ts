import { readBoundedText } from '@x/protocol/http';

/** The header reads the handler makes; `Headers` has this shape, and so does the node adapter's view. */
export interface HeaderReader {
  /** The value of a header (lower-case name), repeated values joined with `, `; null when absent. */
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * One HTTP request as the handler core sees it. The Web-standard entry wraps a `Request`; the
 * `node:http` adapter reads the `IncomingMessage` directly, so the hot path builds no `Request`, no
 * `AbortSignal` and no body stream unless something (the `authenticate` hook) asks for a `Request`.
 */
export interface HttpIncoming {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away before the response is complete. */
  readonly signal: AbortSignal;
  /** The client went away before the response was complete. */
  readonly gone: boolean;
  /**
   * Calls `listener` once if the client goes away before the response is complete: what `signal` tells,
   * without an `AbortSignal` (on Node one costs more than the rest of a small request).
   */
  onDisconnect(listener: () => void): void;
  /** The headers as a plain record (for `MessageExtraInfo.requestInfo`). */
  headerRecord(): Record<string, string>;
  /**
   * The body as UTF-8 text, at most `maxBytes` of it: throws `PayloadTooLargeError` beyond, `TypeError`
   * for bytes that are not UTF-8 (the contract of `readBoundedText`).
   */
  readText(maxBytes: number): Promise<string>;
  /** The request as a Web `Request` (for user hooks that take one). */
  toRequest(): Request;
}

/** The `HttpIncoming` of a Web `Request`. */
export function webIncoming(request: Request): HttpIncoming {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    get signal() {
      return request.signal;
    },
    get gone() {
      return request.signal.aborted;
    },
    onDisconnect: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
    headerRecord: () => {
      const out: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        out[name] = value;
      });
      return out;
    },
    readText: (maxBytes) => readBoundedText(request, { maxBytes }),
    toRequest: () => request,
  };
}
