import {
  BatchResponses,
  ConnectionClosedError,
  parseMessageOrBatch,
  serializeMessage,
} from '@x/protocol/core';
import { deliverMessage } from '@x/protocol/transport';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@x/protocol/core';
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_IDLE_TIMEOUT_MS,
  HttpStatusError,
  IdleWatchdog,
  MAX_AUTH_RETRIES,
  parseMediaType,
} from '@x/protocol/http';
import { fetchersOf, loadDefaultFetchers } from './default-fetch.js';
import type { Fetchers, OpenedStream } from './default-fetch.js';
import { linkedSignal } from './linked-signal.js';
import { DEFAULT_MAX_CONCURRENT_SENDS, SendLimiter } from './send-limiter.js';
import { DEFAULT_ENDPOINT_TIMEOUT_MS, type SseClientTransportOptions } from './sse-client-options.js';
import { SseEndpointError } from './sse-endpoint-error.js';

type State = 'new' | 'connecting' | 'open' | 'closed';

// Shared with every transport (the same limit has the same default everywhere, issue #36).
export { DEFAULT_MAX_MESSAGE_BYTES } from '@x/protocol/http';

const JSON_CONTENT_TYPE = { 'content-type': 'application/json' } as const;
const EVENT_STREAM_ACCEPT = { accept: 'text/event-stream' } as const;

/**
 * The client side of the legacy HTTP+SSE transport (2024-11-05): receives on a GET event stream, sends
 * each message as a POST to the endpoint the server announces.
 *
 * The client MUST support receiving JSON-RPC batches on 2025-03-26 (basic: "MUST support receiving
 * JSON-RPC batches"): once that version is negotiated (`setProtocolVersion`), a `message` event whose data
 * is an array is delivered message by message, and the answers to the server requests in it go back in
 * one POST whose body is the array. On any other version the batch is refused: a -32600 error (id null)
 * is POSTed back.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport('http://127.0.0.1:3000/sse', {
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 * });
 * await client.connect(transport);
 * ```
 */
export class SseClientTransport implements Transport {
  /** The peer is across a network: a `Client` runs its MCP heartbeat by default (`Transport.network`). */
  readonly network = true;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  /**
   * Why the session ended, when the server or the network ended it (not our `close()`): a
   * `ConnectionClosedError` naming the URL and what happened. Set before `onclose`; the engine rejects
   * pending requests with it.
   */
  closeReason: Error | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  sessionId?: string | undefined;

  #url: URL;
  #options: SseClientTransportOptions;
  get #maxMessageBytes(): number {
    return this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }
  #state: State = 'new';
  #endpoint: URL | undefined;
  #protocolVersion: string | undefined;
  #abort = new AbortController();
  #limiter: SendLimiter;
  #maxConcurrentSends: number;
  #fetchers: Fetchers | undefined;
  #endpointWaiter: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #idle: IdleWatchdog;
  readonly #batches = new BatchResponses({
    write: (responses) => this.#post(JSON.stringify(responses), undefined),
  });

  /** `url`: the SSE endpoint (the URL that answers GET with an event stream). */
  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#options = options;
    this.#maxConcurrentSends = options.maxConcurrentSends ?? DEFAULT_MAX_CONCURRENT_SENDS;
    this.#limiter = new SendLimiter(this.#maxConcurrentSends);
    const timeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.#idle = new IdleWatchdog({ timeoutMs, onIdle: () => this.#idleTimedOut(timeoutMs) });
  }

  /** The POST endpoint, once `start()` has resolved. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  setProtocolVersion = (version: string): void => {
    this.#protocolVersion = version;
  };

  /** Opens the stream and resolves once the server has announced where to POST. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('SseClientTransport already started');
    this.#state = 'connecting';
    try {
      const fetch = this.#options.fetch;
      this.#fetchers = fetch === undefined ? await loadDefaultFetchers() : fetchersOf(fetch);
      // Every POST in flight and the stream itself.
      this.#fetchers.shareSignal?.(this.#abort.signal, this.#maxConcurrentSends + 1);
      const endpointReady = new Promise<void>((resolve, reject) => {
        this.#endpointWaiter = { resolve, reject };
      });
      // close() during the GET rejects it before anyone awaits it; the await below still sees that.
      endpointReady.catch(() => {});
      const opened = await this.#openStream();
      const type = parseMediaType(opened.contentType)?.type;
      if (type !== 'text/event-stream' || !opened.hasBody) {
        await opened.cancel();
        throw new Error(
          `Expected an event stream from ${this.#url.href}, got content-type ${type ?? 'none'}`,
        );
      }
      void this.#pump(opened);
      await this.#withTimeout(endpointReady);
    } catch (error) {
      this.#endpointWaiter = undefined;
      await this.close();
      throw error;
    }
  }

  // Not `async`, down to the POST itself: a message costs no promise or microtask per layer.
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const held = this.#batches.take(message);
    if (held !== undefined) return held;
    let body: string;
    try {
      body = serializeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    // A notification keeps its place among the POSTs (see SendLimiter).
    return this.#post(body, options, 'method' in message && !('id' in message));
  }

  #post(body: string, options: TransportSendOptions | undefined, barrier = false): Promise<void> {
    const endpoint = this.#endpoint;
    if (this.#state !== 'open' || endpoint === undefined) {
      if (this.closeReason !== undefined) return Promise.reject(this.closeReason);
      return Promise.reject(
        new ConnectionClosedError(this.#state === 'closed' ? 'Transport closed' : 'Transport not started'),
      );
    }
    return this.#limiter.run(() => this.#postNow(endpoint, body, options), barrier);
  }

  async #postNow(endpoint: URL, body: string, options: TransportSendOptions | undefined): Promise<void> {
    if (this.#state !== 'open') throw new ConnectionClosedError('Transport closed');
    const fetchers = this.#fetchers as Fetchers;
    const signal = options?.signal;
    // See `Fetchers.shareSignal`: only a post that lets go of its signal may share the transport's.
    const link =
      signal === undefined && fetchers.shareSignal !== undefined
        ? undefined
        : linkedSignal([this.#abort.signal, signal]);
    try {
      for (let attempt = 0; ; attempt++) {
        let refused: Response | undefined;
        try {
          refused = await fetchers.post(endpoint, {
            headers:
              this.#options.getHeaders === undefined
                ? this.#headersWith(undefined, options?.headers, JSON_CONTENT_TYPE)
                : await this.#headers('POST', endpoint, options?.headers, JSON_CONTENT_TYPE),
            body,
            signal: link?.signal ?? signal ?? this.#abort.signal,
            onHead: this.#options.onResponse,
          });
        } catch (cause) {
          if (this.#abort.signal.aborted) throw new ConnectionClosedError('Transport closed', { cause });
          throw cause;
        }
        if (refused === undefined) return;
        const answer = await this.#authRetry(refused, attempt);
        if (answer === undefined) continue;
        throw await HttpStatusError.from(answer, 'POST to the message endpoint');
      }
    } finally {
      link?.dispose();
    }
  }

  /**
   * Ends the stream and aborts POSTs in flight. Idempotent; `onclose` fires once. Resolves when every
   * socket the transport opened is closed (on Node, without a `fetch` of your own), so a server's
   * graceful shutdown has nothing of ours to wait for.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return this.#fetchers?.close?.();
    this.#state = 'closed';
    this.#batches.clear();
    this.#endpointWaiter?.reject(new ConnectionClosedError('Transport closed before the endpoint arrived'));
    this.#endpointWaiter = undefined;
    this.#idle.stop();
    this.#abort.abort();
    this.onclose?.();
    await this.#fetchers?.close?.();
  }

  /** The headers of a request: the option's, then `getHeaders(request)`'s, then `extra`'s, then `last`. */
  async #headers(
    method: string,
    url: URL,
    extra: Record<string, string> | undefined,
    last: Readonly<Record<string, string>>,
  ): Promise<Record<string, string>> {
    const getHeaders = this.#options.getHeaders;
    const dynamic = getHeaders === undefined ? undefined : await getHeaders({ method, url });
    return this.#headersWith(dynamic, extra, last);
  }

  #headersWith(
    dynamic: Record<string, string> | undefined,
    extra: Record<string, string> | undefined,
    last: Readonly<Record<string, string>>,
  ): Record<string, string> {
    // Object.assign, not a literal of spreads: on Node 20 that is V8's slow path (~0.35 µs per extra part).
    const headers: Record<string, string> = Object.assign({}, this.#options.headers, dynamic, extra, last);
    if (this.#protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#protocolVersion;
    return headers;
  }

  /** The GET of the event stream, answered with 2xx (else thrown as `HttpStatusError`). */
  async #openStream(): Promise<OpenedStream> {
    const fetchers = this.#fetchers;
    if (fetchers === undefined) throw new ConnectionClosedError('Transport not started');
    for (let attempt = 0; ; attempt++) {
      let opened: OpenedStream;
      try {
        opened = await fetchers.stream(this.#url, {
          headers: await this.#headers('GET', this.#url, undefined, EVENT_STREAM_ACCEPT),
          signal: this.#abort.signal,
        });
      } catch (cause) {
        if (this.#abort.signal.aborted) throw new ConnectionClosedError('Transport closed', { cause });
        throw cause;
      }
      this.#options.onResponse?.(new Response(null, { status: opened.status, headers: opened.headers() }));
      if (opened.status >= 200 && opened.status < 300) return opened;
      const answer = await this.#authRetry(await opened.toResponse(), attempt);
      if (answer === undefined) continue;
      throw await HttpStatusError.from(answer, 'Opening the SSE stream');
    }
  }

  /**
   * A 401 goes to `onUnauthorized` (e.g. to refresh a token), a 403 to `onForbidden`
   * (`insufficient_scope` step-up), for the first `MAX_AUTH_RETRIES` answers to one request: undefined
   * when the hook says new credentials are ready and the request is to be sent again, else the response to report (a copy when the hook was shown one, so
   * the error still has the body).
   */
  async #authRetry(response: Response, attempt: number): Promise<Response | undefined> {
    const hook =
      attempt >= MAX_AUTH_RETRIES
        ? undefined
        : response.status === 401
          ? this.#options.onUnauthorized
          : response.status === 403
            ? this.#options.onForbidden
            : undefined;
    if (hook === undefined) return response;
    const text = await response.text().catch(() => '');
    const copy = (): Response =>
      new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    return (await hook(copy())) ? undefined : copy();
  }

  async #withTimeout(ready: Promise<void>): Promise<void> {
    const ms = this.#options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new SseEndpointError(`No endpoint event from ${this.#url.href} within ${ms} ms`)),
        ms,
      );
    });
    try {
      await Promise.race([ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #pump(opened: OpenedStream): Promise<void> {
    const parser = createParser({
      onEvent: (event) => this.#onEvent(event),
      // A comment is a keep-alive: the server sends them, so silence now means trouble (see idleTimeoutMs).
      onComment: () => this.#idle.arm(),
      // Unknown fields and bad `retry` values are ignored by the SSE spec. An oversized event stops the
      // parser for good (it cannot find the next event boundary safely), so the session ends with a
      // reason that names the limit, and pending requests fail now instead of at their timeout.
      onError: (error) => {
        if (error.type !== 'max-buffer-size-exceeded' || this.#state === 'closed') return;
        this.closeReason = new ConnectionClosedError(
          `An event on the SSE stream from ${this.#url.href} exceeds maxMessageBytes (${this.#maxMessageBytes}); the session is closed`,
          { cause: error },
        );
        this.onerror?.(this.closeReason);
        void this.close();
      },
      maxBufferSize: this.#maxMessageBytes,
    });
    if (this.#options.idleTimeoutMs !== undefined) this.#idle.arm();
    let cause: unknown;
    try {
      await opened.read((text) => {
        // Any byte proves the peer alive, whether or not it completes an event.
        this.#idle.touch();
        parser.feed(text);
      });
    } catch (error) {
      cause = error;
    }
    this.#streamEnded(cause);
  }

  #onEvent(event: EventSourceMessage): void {
    // close() may run inside onmessage while the rest of the same chunk is still being parsed.
    if (this.#state === 'closed') return;
    if (this.#endpoint === undefined) {
      if (event.event === 'endpoint') this.#acceptEndpoint(event.data);
      return;
    }
    // Unnamed events dispatch as `message` (WHATWG SSE); anything else (a repeated endpoint) is ignored.
    if (event.event !== undefined && event.event !== 'message') return;
    let message: JSONRPCMessage | unknown[];
    try {
      message = parseMessageOrBatch(event.data, this.#options);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (Array.isArray(message)) this.#onBatch(message);
    else this.#deliver(message);
  }

  #deliver(message: JSONRPCMessage): void {
    // A throwing handler must not look like a broken stream (it would end the session).
    deliverMessage(this, message);
  }

  #onBatch(values: unknown[]): void {
    this.#batches.receive(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#options.maxBatchSize,
      deliver: (message) => {
        if (this.#state === 'closed') return false;
        this.#deliver(message);
        return true;
      },
      refuse: (error) => this.#post(serializeMessage(error), undefined),
      onerror: (error) => this.onerror?.(error),
    });
  }

  #acceptEndpoint(data: string): void {
    const waiter = this.#endpointWaiter;
    // Only the first endpoint event counts, even when a refused one is followed by another.
    if (waiter === undefined) return;
    this.#endpointWaiter = undefined;
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.#url);
    } catch (cause) {
      waiter.reject(new SseEndpointError(`Malformed endpoint event: ${data}`, { endpoint: data, cause }));
      return;
    }
    // Posting to another origin would hand our messages (and auth headers) to a host we never chose.
    if (endpoint.origin !== this.#url.origin) {
      waiter.reject(
        new SseEndpointError(
          `Endpoint origin ${endpoint.origin} does not match the SSE origin ${this.#url.origin}`,
          { endpoint: data },
        ),
      );
      return;
    }
    this.#endpoint = endpoint;
    // Open before start() resolves: a message right behind the endpoint event may be answered at once.
    this.#state = 'open';
    this.sessionId = endpoint.searchParams.get('sessionId') ?? undefined;
    waiter.resolve();
  }

  #idleTimedOut(timeoutMs: number): void {
    if (this.#state === 'closed') return;
    const silence = `Nothing arrived on the SSE stream from ${this.#url.href} for ${timeoutMs} ms`;
    this.closeReason = new ConnectionClosedError(`${silence} (idleTimeoutMs): the server is gone`);
    this.onerror?.(this.closeReason);
    void this.close();
  }

  #streamEnded(cause: unknown): void {
    if (this.#state === 'closed') return;
    const waiter = this.#endpointWaiter;
    if (waiter !== undefined) {
      this.#endpointWaiter = undefined;
      waiter.reject(new SseEndpointError('The SSE stream ended before the endpoint event', { cause }));
      return;
    }
    // Legacy SSE has no resumption: a new GET would be a new session the server knows nothing of. A
    // clean end is the server closing the session; only a broken stream is a fault worth onerror.
    const url = this.#url.href;
    if (cause === undefined) {
      this.closeReason = new ConnectionClosedError(
        `The server ended the SSE stream of ${url} (session over)`,
      );
    } else {
      const why = cause instanceof Error ? `: ${cause.message}` : '';
      this.closeReason = new ConnectionClosedError(`SSE stream from ${url} lost${why}`, { cause });
      this.onerror?.(this.closeReason);
    }
    void this.close();
  }
}
