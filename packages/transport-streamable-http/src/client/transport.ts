import {
  ConnectionClosedError,
  ErrorCode,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  McpError,
  type ParseOptions,
  parseMessageOrBatch,
  type RequestId,
  readBatch,
  resolveReconnect,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import { deliverMessage, CancelHandle as Exchange, isThenable } from '@x/protocol/transport';
import { HEADER } from '../shared/headers.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  MAX_AUTH_RETRIES,
  PayloadTooLargeError,
  parseMediaType,
} from '@x/protocol/http';
import { type DefaultRequester, defaultRequester } from './default-requester.js';
import { Exchanges } from './exchanges.js';
import { HttpStatusError, parseRetryAfter } from '@x/protocol/http';
import { STREAMABLE_HTTP_RECONNECT_DEFAULTS, type StreamableHttpClientTransportOptions } from './options.js';
import { ModernRequests } from './modern-requests.js';
import { modernVersionOf } from './request-headers.js';
import { fetchRequester, type HttpReply, type HttpRequester, readPrefix } from './requester.js';
import { SessionRecovery } from './session-recovery.js';
import { SseStreams, type StreamHost } from './sse-streams.js';

interface RetryState {
  /** How many times a 401 or 403 was already answered by sending the request again. */
  auth?: number;
  session?: boolean;
}

/** One POST on its way: what `#post` worked out before sending. */
interface Post {
  message: JSONRPCMessage;
  options: TransportSendOptions | undefined;
  retry: RetryState;
  headers: Record<string, string>;
  modernVersion: string | undefined;
  requestId: RequestId | undefined;
  exchange: Exchange;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
/** Most of an error body kept for the error message (the rest is not read). */
const ERROR_EXCERPT_BYTES = 4_096;

/** How a message is named in errors. */
function describe(message: JSONRPCMessage): string {
  if ('method' in message) return message.method;
  return `the response to request ${String(message.id)}`;
}

/**
 * The error a failed exchange surfaces: the peer, what happened, and the HTTP client's error as `cause`
 * (not undici's bare "other side closed").
 */
function exchangeFailed(url: URL, message: JSONRPCMessage, cause: unknown): ConnectionClosedError {
  const code = (cause as { code?: unknown } | null)?.code;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const closed =
    code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED' || code === 'EPIPE';
  const what = isJSONRPCRequest(message)
    ? `connection closed by the server while awaiting the response to ${message.method}`
    : `connection closed by the server while sending ${describe(message)}`;
  const text = closed
    ? `${url}: ${what} (${reason})`
    : `${url}: could not send ${describe(message)}: ${reason}`;
  return new ConnectionClosedError(text, { cause });
}

function lowerKeys(headers: Record<string, string> | undefined, into: Record<string, string>): void {
  if (headers === undefined) return;
  for (const [name, value] of Object.entries(headers)) into[name.toLowerCase()] = value;
}

function isInitialized(message: JSONRPCMessage): boolean {
  return isJSONRPCNotification(message) && message.method === 'notifications/initialized';
}

/**
 * The client end of Streamable HTTP, for both eras. Legacy (≤ 2025-11-25): sessions, the GET stream,
 * resumption with `Last-Event-ID`, and transparent re-initialization when the server forgets the session.
 * Modern (2026-07-28, chosen per request by its `_meta` protocol version): stateless POSTs with
 * `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers; cancelling a request closes its response stream.
 *
 * On a 2025-03-26 session the server's replies and stream events "MAY be batched": a JSON body or an SSE
 * event holding an array is delivered message by message (answers to server requests in it go back as
 * POSTs of their own). On other versions such a batch is refused: reported to `onerror` as a -32600
 * error and not delivered (and a JSON reply that was refused fails the request it answered).
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
 *   getHeaders: async () => ({ authorization: `Bearer ${await tokens.current()}` }),
 * });
 * await client.connect(transport);
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** Each request has its own POST and response stream; `requestSignal` closes it (2026-07-28 cancel). */
  readonly hasPerRequestStream = true;
  /** The peer is across a network: a `Client` runs its MCP heartbeat by default (`Transport.network`). */
  readonly network = true;

  readonly #url: URL;
  readonly #options: StreamableHttpClientTransportOptions;
  #requester: Promise<DefaultRequester> | undefined;
  /** The requester once loaded, so a request need not wait a microtask for it. */
  #http: HttpRequester | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #started = false;
  #closed = false;
  #exchanges = new Exchanges();
  #streams: SseStreams;
  #recovery = new SessionRecovery();
  #modern = new ModernRequests();
  #notifications: Promise<void> = Promise.resolve();
  /** Notification POSTs not yet accepted; while zero a request need not wait behind them. */
  #notificationsPending = 0;
  readonly #maxMessageBytes: number;
  readonly #parse: ParseOptions;

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#options = options;
    this.#sessionId = options.sessionId;
    this.#protocolVersion = options.protocolVersion;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#parse = { maxNestingDepth: options.maxNestingDepth };
    this.#streams = new SseStreams({
      host: this.#streamHost(),
      url: this.#url,
      exchanges: this.#exchanges,
      reconnect: resolveReconnect(options.reconnect, STREAMABLE_HTTP_RECONNECT_DEFAULTS, true),
      maxMessageBytes: this.#maxMessageBytes,
      parse: this.#parse,
      idle: {
        timeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
        explicit: options.idleTimeoutMs !== undefined,
      },
    });
  }

  /** The legacy session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The version sent in `MCP-Protocol-Version` on legacy requests. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  setProtocolVersion = (version: string): void => {
    this.#protocolVersion = version;
  };

  async start(): Promise<void> {
    if (this.#started) throw new Error('StreamableHttpClientTransport already started');
    this.#started = true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new ConnectionClosedError('Transport is closed');
    if (options?.resumptionToken !== undefined) {
      // Resume a stream interrupted earlier (e.g. in another process): GET with Last-Event-ID.
      const requestId = isJSONRPCRequest(message) ? message.id : undefined;
      void this.#streams.open({
        requestId,
        modern: false,
        lastEventId: options.resumptionToken,
        attempt: 0,
        onresumptiontoken: options.onresumptiontoken,
      });
      return;
    }
    this.#recovery.remember(message);
    if (isJSONRPCRequest(message)) {
      // A new InitializeRequest is sent "without a session ID attached" (2025-11-25 sessions, 4).
      if (message.method === 'initialize') this.#sessionId = undefined;
      else this.#modern.sending(message);
    } else if (isJSONRPCNotification(message)) {
      if (message.method === 'notifications/cancelled' && this.#modern.cancel(message)) return;
      // Notifications keep their order: each POST starts once the previous one was accepted (202), since
      // parallel POSTs may reach the server in any order.
      this.#notificationsPending++;
      const sent = this.#notifications.then(() => this.#post(message, options, {}));
      this.#notifications = sent.then(
        () => void this.#notificationsPending--,
        () => void this.#notificationsPending--,
      );
      return sent;
    }
    // Requests and responses go out concurrently, but never ahead of a notification sent before them
    // (a request must not overtake, e.g., `notifications/initialized`).
    if (this.#notificationsPending > 0) await this.#notifications;
    try {
      await this.#post(message, options, {});
    } catch (error) {
      if (isJSONRPCRequest(message)) this.#modern.failed(message.id);
      throw error;
    }
  }

  /** Ends the session with DELETE (404/405 tolerated) and forgets it. */
  async terminateSession(): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return;
    const requester = this.#http ?? (await this.#getRequester());
    const headers = await this.#legacyHeaders('DELETE');
    const exchange = new Exchange();
    const timer = setTimeout(
      () => exchange.abort(new DOMException('The DELETE timed out', 'TimeoutError')),
      5_000,
    );
    // Like `AbortSignal.timeout`: the timer alone must not keep a process alive.
    (timer as { unref?: () => void }).unref?.();
    let reply: HttpReply;
    try {
      reply = await requester({ method: 'DELETE', url: this.#url, headers, exchange });
      this.#showResponse(reply);
      await reply.discard();
    } finally {
      clearTimeout(timer);
    }
    const ok = (reply.status >= 200 && reply.status < 300) || reply.status === 404 || reply.status === 405;
    if (!ok) {
      const message = `DELETE ${this.#url} failed with HTTP ${reply.status}`;
      throw new HttpStatusError({ status: reply.status, message });
    }
    this.#sessionId = undefined;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const terminate = this.#sessionId !== undefined && this.#options.terminateSessionOnClose !== false;
    // The GET stream stays open during the DELETE: a server ends it with the session, which hands its
    // connection back to the pool instead of tearing it down. Whatever it still carries is dropped.
    const standalone = terminate ? this.#streams.standalone : undefined;
    this.#exchanges.closeAll(standalone);
    this.#recovery.abort(new ConnectionClosedError('Transport is closed'));
    if (terminate) await this.terminateSession().catch((error: unknown) => this.#fault(error));
    if (standalone !== undefined && this.#exchanges.isOpen(standalone)) {
      // Its end may arrive a moment after the DELETE's answer; then (or anyway) it is aborted.
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      standalone.abort();
    }
    if (this.#requester !== undefined) await (await this.#requester).close().catch(() => {});
    this.onclose?.();
  }

  #streamHost(): StreamHost {
    const transport = this;
    return {
      get closed() {
        return transport.#closed;
      },
      requester: () => this.#getRequester(),
      getHeaders: async () => this.#legacyHeaders('GET'),
      authRetry: (reply, retried) => {
        this.#showResponse(reply);
        return retried >= MAX_AUTH_RETRIES ? Promise.resolve(undefined) : this.#authRetry(reply);
      },
      hasSession: () => this.#sessionId !== undefined,
      receive: (message) => this.#receive(message),
      receiveBatch: (values, requestId) => this.#receiveBatch(values, requestId),
      fault: (error) => this.#fault(error),
      sessionLost: (standalone) => {
        if (standalone && this.#mayRecover({ jsonrpc: '2.0', method: 'ping' }, {})) {
          this.#recover().catch((error: unknown) => this.#fault(error));
        } else {
          this.#fault(
            new HttpStatusError({ status: 404, message: 'Session not found while resuming a stream' }),
          );
        }
      },
      cancelled: (requestId) => this.#modern.cancelled(requestId),
      lose: (requestId, reason) => {
        this.#modern.settle(requestId);
        const error = { code: ErrorCode.ConnectionClosed, message: reason };
        this.#receive({ jsonrpc: '2.0', id: requestId, error });
      },
    };
  }

  async #getRequester(): Promise<HttpRequester> {
    if (this.#requester === undefined) {
      const custom = this.#options.fetch;
      this.#requester =
        custom === undefined
          ? defaultRequester()
          : Promise.resolve({ requester: fetchRequester(custom), close: async () => {} });
    }
    const { requester } = await this.#requester;
    this.#http = requester;
    return requester;
  }

  /** Static and computed headers; synchronous unless `getHeaders` returns a promise. */
  #baseHeaders(method: string): Record<string, string> | Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    lowerKeys(this.#options.headers, headers);
    const getHeaders = this.#options.getHeaders;
    if (getHeaders === undefined) return headers;
    const computed = getHeaders({ method, url: this.#url });
    if (!isThenable(computed)) {
      lowerKeys(computed, headers);
      return headers;
    }
    return Promise.resolve(computed).then((value) => {
      lowerKeys(value, headers);
      return headers;
    });
  }

  #addSession(headers: Record<string, string>): Record<string, string> {
    if (this.#sessionId !== undefined) headers[HEADER.sessionId] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers[HEADER.protocolVersion] = this.#protocolVersion;
    return headers;
  }

  #legacyHeaders(method: string): Record<string, string> | Promise<Record<string, string>> {
    const headers = this.#baseHeaders(method);
    return headers instanceof Promise
      ? headers.then((value) => this.#addSession(value))
      : this.#addSession(headers);
  }

  async #post(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    retry: RetryState,
  ): Promise<void> {
    const requester = this.#http ?? (await this.#getRequester());
    const modernVersion = 'method' in message ? modernVersionOf(message) : undefined;
    let headers: Record<string, string>;
    if (modernVersion !== undefined && 'method' in message) {
      // Modern requests carry no session (2026-07-28 removed them) and mirror their body into headers.
      const base = this.#baseHeaders('POST');
      headers = base instanceof Promise ? await base : base;
      this.#modern.addHeaders(headers, message, modernVersion);
    } else {
      const legacy = this.#legacyHeaders('POST');
      headers = legacy instanceof Promise ? await legacy : legacy;
    }
    headers[HEADER.accept] = ACCEPT_BOTH;
    headers[HEADER.contentType] = 'application/json';
    lowerKeys(options?.headers, headers);
    const requestId = isJSONRPCRequest(message) ? message.id : undefined;
    // An engine that offers onRequestCancel closes the request through it (no AbortSignal per request).
    const onCancel = options?.onRequestCancel;
    const exchange = this.#exchanges.open(
      onCancel === undefined ? (options?.requestSignal ?? options?.signal) : undefined,
    );
    onCancel?.((reason) => exchange.abort(reason));
    if (requestId !== undefined && modernVersion !== undefined) this.#modern.track(requestId, exchange);
    let streaming = false;
    try {
      streaming = await this.#send(requester, {
        message,
        options,
        retry,
        headers,
        modernVersion,
        requestId,
        exchange,
      });
    } finally {
      if (!streaming) this.#exchanges.release(exchange);
    }
  }

  /** The POST itself; resolves true when an SSE reply keeps the exchange open. */
  async #send(requester: HttpRequester, post: Post): Promise<boolean> {
    const { message, options, retry, headers, modernVersion, requestId, exchange } = post;
    let reply: HttpReply;
    try {
      const body = JSON.stringify(message);
      reply = await requester({ method: 'POST', url: this.#url, headers, body, exchange });
    } catch (error) {
      if (requestId !== undefined) this.#modern.settle(requestId);
      if (this.#closed) throw new ConnectionClosedError('Transport is closed', { cause: error });
      // A caller's cancel keeps its own reason.
      if (exchange.aborted) throw error;
      throw exchangeFailed(this.#url, message, error);
    }
    const sessionId = reply.header(HEADER.sessionId);
    if (sessionId !== null && modernVersion === undefined) this.#sessionId = sessionId;

    this.#showResponse(reply);
    const retries = retry.auth ?? 0;
    // Only a 401/403 awaits anything here: the common reply costs no extra microtask.
    const excerpt =
      (reply.status === 401 || reply.status === 403) && retries < MAX_AUTH_RETRIES
        ? await this.#authRetry(reply)
        : undefined;
    if (excerpt === true) {
      await this.#post(message, options, { ...retry, auth: retries + 1 });
      return false;
    }
    if (reply.status === 404 && headers[HEADER.sessionId] !== undefined && this.#mayRecover(message, retry)) {
      await reply.discard();
      await this.#recover();
      // Recovery itself re-sent `notifications/initialized`.
      if (!isInitialized(message)) await this.#post(message, options, { ...retry, session: true });
      return false;
    }
    if (reply.status < 200 || reply.status >= 300) {
      if (requestId !== undefined) this.#modern.settle(requestId);
      const body = excerpt ?? (await readPrefix(reply, ERROR_EXCERPT_BYTES));
      const text = `POST ${this.#url} failed with HTTP ${reply.status}${body === '' ? '' : `: ${body}`}`;
      const retryAfterMs = parseRetryAfter(reply.header('retry-after'));
      throw new HttpStatusError({ status: reply.status, body, message: text, retryAfterMs });
    }
    if (requestId === undefined) {
      await reply.discard();
      if (isInitialized(message) && this.#options.standaloneStream !== false) this.#streams.openStandalone();
      return false;
    }
    const type = parseMediaType(reply.header(HEADER.contentType))?.type;
    if (type === 'text/event-stream') {
      const context = {
        requestId,
        method: 'method' in message ? message.method : undefined,
        modern: modernVersion !== undefined,
        lastEventId: undefined,
        attempt: 0,
        onresumptiontoken: options?.onresumptiontoken,
      };
      void this.#streams.consume(reply, context, exchange).finally(() => this.#exchanges.release(exchange));
      return true;
    }
    this.#modern.settle(requestId);
    if (type === 'application/json') {
      let text: string;
      try {
        text = await reply.text(this.#maxMessageBytes);
      } catch (error) {
        if (error instanceof PayloadTooLargeError) {
          const limit = `maxMessageBytes (${this.#maxMessageBytes})`;
          throw new HttpStatusError({
            status: reply.status,
            message: `POST ${this.#url}: the reply to ${describe(message)} exceeds ${limit}; not read`,
          });
        }
        if (exchange.aborted || this.#closed) throw error;
        throw exchangeFailed(this.#url, message, error);
      }
      await this.#receiveJson(text);
      return false;
    }
    await reply.discard();
    if (reply.status === 202) return false;
    throw new HttpStatusError({
      status: -1,
      message: `Unexpected content type in reply: ${String(type)}`,
    });
  }

  /** `onResponse` sees the status and headers of every reply (e.g. a `DPoP-Nonce`), never its body. */
  #showResponse(reply: HttpReply): void {
    const onResponse = this.#options.onResponse;
    if (onResponse === undefined) return;
    try {
      onResponse(new Response(null, { status: reply.status, headers: reply.headers() }));
    } catch (error) {
      this.#fault(error);
    }
  }

  /**
   * A 401 goes to `onUnauthorized`, a 403 to `onForbidden` (`insufficient_scope` step-up, 2025-11-25
   * "Scope Challenge Handling"): `true` when the hook has new credentials (the request is then sent
   * again, at most `MAX_AUTH_RETRIES` times). Otherwise the excerpt of the body it read (at most 4 KiB: a hostile server's endless
   * error page costs no more), or undefined when no hook ran and the body is unread.
   */
  async #authRetry(reply: HttpReply): Promise<true | string | undefined> {
    const hook =
      reply.status === 401
        ? this.#options.onUnauthorized
        : reply.status === 403
          ? this.#options.onForbidden
          : undefined;
    if (hook === undefined) return undefined;
    const body = await readPrefix(reply, ERROR_EXCERPT_BYTES);
    return (await hook(new Response(body, { status: reply.status, headers: reply.headers() }))) ? true : body;
  }

  async #receiveJson(text: string): Promise<void> {
    const decoded = parseMessageOrBatch(text, this.#parse);
    if (!Array.isArray(decoded)) {
      this.#receive(decoded);
      return;
    }
    const reading = readBatch(decoded, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#options.maxBatchSize,
    });
    if (!reading.ok) throw new McpError(reading.error.error.code, reading.error.error.message);
    this.#reportInvalid(reading.errors);
    for (let i = 0; i < reading.messages.length; i++) {
      // One microtask apart, as on a stream (see sse-reader.ts).
      if (i > 0) await Promise.resolve();
      this.#receive(reading.messages[i] as JSONRPCMessage);
    }
  }

  /** A batch in an SSE event; returns whether it held the response to `requestId`. */
  #receiveBatch(values: unknown[], requestId: RequestId | undefined): boolean {
    const reading = readBatch(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#options.maxBatchSize,
    });
    if (!reading.ok) {
      this.#fault(new McpError(reading.error.error.code, reading.error.error.message));
      return false;
    }
    this.#reportInvalid(reading.errors);
    let answered = false;
    for (const message of reading.messages) {
      if (requestId !== undefined && isJSONRPCResponse(message) && message.id === requestId) answered = true;
      this.#receive(message);
    }
    return answered;
  }

  /** Invalid elements of a batch: HTTP gives a client no channel to answer them, so they are reported. */
  #reportInvalid(errors: readonly { error: { code: number; message: string } }[]): void {
    for (const { error } of errors) this.#fault(new McpError(error.code, error.message));
  }

  #mayRecover(message: JSONRPCMessage, retry: RetryState): boolean {
    if (this.#options.reinitializeOnSessionLoss === false || retry.session === true) return false;
    return this.#recovery.canRecover(message);
  }

  #recover(): Promise<void> {
    return this.#recovery.recover(async (message) => {
      if (isJSONRPCRequest(message)) {
        // The old session's GET stream is useless now; `notifications/initialized` opens a new one.
        this.#sessionId = undefined;
        this.#streams.abortStandalone();
      }
      await this.#post(message, undefined, { session: true });
    });
  }

  #receive(message: JSONRPCMessage): void {
    if (this.#closed || this.#recovery.claim(message)) return;
    if (isJSONRPCResponse(message) && message.id !== undefined && message.id !== null) {
      const rejected = this.#modern.received(message.id, message);
      if (rejected.length > 0) {
        this.#fault(
          new Error(`Excluded tools with invalid x-mcp-header annotations: ${rejected.join(', ')}`),
        );
      }
    }
    deliverMessage(this, message);
  }

  #fault(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
