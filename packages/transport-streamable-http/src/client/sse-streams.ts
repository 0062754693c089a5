import {
  isJSONRPCResponse,
  type JSONRPCMessage,
  type ParseOptions,
  parseMessageOrBatch,
  type RequestId,
  reconnectDelay,
  type ResolvedReconnectOptions,
} from '@x/protocol/core';
import type { EventSourceMessage } from 'eventsource-parser';
import { HEADER } from '../shared/headers.js';
import { IdleWatchdog, PayloadTooLargeError, parseMediaType } from '@x/protocol/http';
import type { CancelHandle as Exchange } from '@x/protocol/transport';
import type { Exchanges } from './exchanges.js';
import { HttpStatusError } from '@x/protocol/http';
import { type HttpReply, type HttpRequester, readPrefix } from './requester.js';
import { readSse } from './sse-reader.js';

/** State of one SSE stream being read, kept across reconnects. */
export interface StreamContext {
  /** The request whose response this stream carries; undefined for the GET stream. */
  requestId: RequestId | undefined;
  /** Its method, for error messages. */
  method?: string | undefined;
  modern: boolean;
  lastEventId: string | undefined;
  /** Failed reconnects in a row; any event resets it. */
  attempt: number;
  onresumptiontoken: ((token: string) => void) | undefined;
}

/** What the streams need from their transport. */
export interface StreamHost {
  readonly closed: boolean;
  requester(): Promise<HttpRequester>;
  /** Headers of a GET: auth, session, protocol version. */
  getHeaders(): Promise<Record<string, string>>;
  /**
   * Shows the reply to `onResponse`; on a 401/403 runs the auth hook: true to send the GET again, else
   * the body excerpt the hook was shown (undefined when the body is unread).
   */
  authRetry(reply: HttpReply, retries: number): Promise<true | string | undefined>;
  hasSession(): boolean;
  receive(message: JSONRPCMessage): void;
  /**
   * An event whose data is a JSON array (2025-03-26 batch); returns whether it held the response to
   * `requestId`.
   */
  receiveBatch(values: unknown[], requestId: RequestId | undefined): boolean;
  fault(error: unknown): void;
  /** The server answered 404 for the session on a GET. */
  sessionLost(standalone: boolean): void;
  /** True when the caller cancelled this request (its stream was closed on purpose). */
  cancelled(requestId: RequestId): boolean;
  /** The request can no longer be answered: deliver an error response (-32000) for it. */
  lose(requestId: RequestId, reason: string): void;
}

/** How a request is named in errors: its method, else its id. */
function what(context: StreamContext): string {
  return context.method ?? `request ${String(context.requestId)}`;
}

/**
 * Reads SSE replies and keeps them going (2025-11-25 "Resumability and Redelivery"): a POST stream that
 * ends before its response is resumed with GET + `Last-Event-ID`; the standalone GET stream is reopened
 * whenever the server ends it (405 means the server offers none). Delays honour the server's `retry`
 * field ("The client MUST respect the retry field") and grow, capped, with failures. A POST stream that
 * cannot be resumed (no event id, resume refused, session gone, retries exhausted) fails its request at
 * once with a -32000 error response.
 */
export class SseStreams {
  #host: StreamHost;
  #url: URL;
  #exchanges: Exchanges;
  #reconnect: ResolvedReconnectOptions | undefined;
  #serverRetryMs: number | undefined;
  #standalone: Exchange | undefined;
  #maxMessageBytes: number;
  #parse: ParseOptions;
  /** `idleTimeoutMs`: 0 off. */
  #idleTimeoutMs: number;
  /** Whether `idleTimeoutMs` was given (watch from the start) or is the default (watch from a keep-alive). */
  #idleExplicit: boolean;

  constructor(options: {
    host: StreamHost;
    url: URL;
    exchanges: Exchanges;
    /** Undefined: streams are not re-opened. */
    reconnect: ResolvedReconnectOptions | undefined;
    /** Largest event (`maxMessageBytes`; counted in characters of text). */
    maxMessageBytes: number;
    parse: ParseOptions;
    /** The silence detector's timeout (`idleTimeoutMs`) and whether the user set it. */
    idle: { timeoutMs: number; explicit: boolean };
  }) {
    this.#idleTimeoutMs = options.idle.timeoutMs;
    this.#idleExplicit = options.idle.explicit;
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#parse = options.parse;
    this.#host = options.host;
    this.#url = options.url;
    this.#exchanges = options.exchanges;
    this.#reconnect = options.reconnect;
  }

  /** Opens the GET stream unless one is open (or being reopened). */
  openStandalone(): void {
    if (this.#standalone !== undefined || this.#host.closed) return;
    void this.open({
      requestId: undefined,
      modern: false,
      lastEventId: undefined,
      attempt: 0,
      onresumptiontoken: undefined,
    });
  }

  /** The exchange of the GET stream, while one is open. */
  get standalone(): Exchange | undefined {
    return this.#standalone;
  }

  /** Drops the GET stream (e.g. before re-initializing: it belongs to the old session). */
  abortStandalone(): void {
    this.#standalone?.abort();
    this.#standalone = undefined;
  }

  /** GET the endpoint: a fresh standalone stream, or a resume when `context.lastEventId` is set. */
  async open(context: StreamContext): Promise<void> {
    if (this.#host.closed) return;
    const exchange = this.#exchanges.open();
    if (context.requestId === undefined) {
      this.#standalone?.abort();
      this.#standalone = exchange;
    }
    try {
      await this.#get(context, exchange);
    } finally {
      this.#exchanges.release(exchange);
    }
  }

  /** Reads one SSE reply to its end, then resumes or reopens it as needed. */
  async consume(reply: HttpReply, context: StreamContext, exchange: Exchange): Promise<void> {
    let answered = false;
    const onEvent = (event: EventSourceMessage): void => {
      if (event.id !== undefined && event.id !== '') {
        context.lastEventId = event.id;
        context.onresumptiontoken?.(event.id);
      }
      context.attempt = 0;
      // Priming events carry an id and empty data (2025-11-25 "Sending Messages to the Server" 6).
      if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
      let message: JSONRPCMessage | unknown[];
      try {
        message = parseMessageOrBatch(event.data, this.#parse);
      } catch (error) {
        this.#host.fault(error);
        return;
      }
      if (Array.isArray(message)) {
        if (this.#host.receiveBatch(message, context.requestId)) answered = true;
        return;
      }
      if (isJSONRPCResponse(message) && message.id === context.requestId) answered = true;
      this.#host.receive(message);
    };
    const onRetry = (ms: number): void => {
      this.#serverRetryMs = ms;
    };
    // A request's own reply stream is bounded by the request's timeout: no watchdog, no call for it.
    const idle =
      context.requestId === undefined || context.method === 'subscriptions/listen'
        ? this.#watch(exchange)
        : undefined;
    let broke: string | undefined;
    try {
      await readSse(
        reply,
        idle === undefined
          ? { onEvent, onRetry }
          : { onEvent, onRetry, onChunk: () => idle.watchdog.touch(), onComment: () => idle.watchdog.arm() },
        this.#maxMessageBytes,
      );
    } catch (error) {
      if (idle?.silent === true) return this.#silenced(context, exchange);
      if (this.#ended(context, exchange)) return;
      if (error instanceof PayloadTooLargeError) {
        // Resuming would only replay the same event: the request is lost, with the limit named.
        const reason = `an SSE event from ${this.#url} exceeds maxMessageBytes (${this.#maxMessageBytes})`;
        this.#host.fault(new Error(`SSE stream dropped: ${reason}`, { cause: error }));
        if (context.requestId !== undefined)
          return this.#abandon(context, `The response to ${what(context)} was dropped: ${reason}`);
        return this.#retry(context, exchange);
      }
      broke = error instanceof Error ? error.message : String(error);
      this.#host.fault(new Error(`SSE stream disconnected (${this.#url}): ${broke}`, { cause: error }));
    } finally {
      idle?.watchdog.stop();
    }
    if (idle?.silent === true) return this.#silenced(context, exchange);
    if (this.#ended(context, exchange)) return;
    if (context.requestId === undefined) {
      // "The server MAY close the SSE stream at any time": reopen it, resuming when it gave us an id.
      this.#retry(context, exchange);
    } else if (answered) {
      return;
    } else if (context.modern) {
      // Modern streams are not resumable: "A broken response stream loses the in-flight request".
      this.#host.lose(
        context.requestId,
        broke === undefined
          ? `${this.#url}: the response stream ended before the response to ${what(context)} arrived`
          : `${this.#url}: connection closed by the server while awaiting the response to ${what(context)} (${broke})`,
      );
    } else if (context.lastEventId === undefined) {
      // No event id, nothing to resume from (2025-11-25 "Resumability and Redelivery" 2), and the
      // response never comes on another stream ("Listening for Messages from the Server" 4).
      this.#abandon(
        context,
        'The response stream ended before the response arrived and cannot be resumed (no event id)',
      );
    } else {
      this.#retry(context, exchange);
    }
  }

  /**
   * The silence detector of a long-lived stream (the GET stream, a `subscriptions/listen` stream), or
   * undefined for a request's own reply stream, which the request's timeout already bounds (and whose
   * chunks should not pay for a clock read).
   */
  #watch(exchange: Exchange): { watchdog: IdleWatchdog; silent: boolean } | undefined {
    if (this.#idleTimeoutMs <= 0) return undefined;
    const idle = {
      silent: false,
      watchdog: new IdleWatchdog({
        timeoutMs: this.#idleTimeoutMs,
        onIdle: () => {
          idle.silent = true;
          exchange.abort(new Error(`No bytes for idleTimeoutMs (${this.#idleTimeoutMs} ms)`));
        },
      }),
    };
    if (this.#idleExplicit) idle.watchdog.arm();
    return idle;
  }

  /**
   * A stream went silent past `idleTimeoutMs` and was aborted: the GET stream is re-opened (resuming
   * from its last event id) under `reconnect`; a listen stream, which 2026-07-28 cannot resume ("A
   * broken response stream loses the in-flight request"), fails its request.
   */
  #silenced(context: StreamContext, exchange: Exchange): void {
    if (this.#host.closed) return;
    const stream = context.requestId === undefined ? 'the GET stream' : `the ${what(context)} stream`;
    const reason = `${this.#url}: ${stream} was silent for idleTimeoutMs (${this.#idleTimeoutMs} ms)`;
    this.#host.fault(new Error(`SSE stream dropped: ${reason}`));
    if (context.requestId !== undefined) {
      this.#host.lose(context.requestId, `The response stream was dropped: ${reason}`);
      return;
    }
    // Only the current GET stream is re-opened: one that was replaced meanwhile is simply gone.
    if (this.#standalone !== exchange) return;
    this.#standalone = undefined;
    this.#retry(context, undefined);
  }

  #ended(context: StreamContext, exchange: Exchange): boolean {
    if (this.#host.closed || exchange.aborted) return true;
    return context.requestId !== undefined && this.#host.cancelled(context.requestId);
  }

  async #get(context: StreamContext, exchange: Exchange, authRetries = 0): Promise<void> {
    const standalone = context.requestId === undefined;
    let reply: HttpReply;
    let excerpt: string | undefined;
    try {
      const requester = await this.#host.requester();
      const headers = await this.#host.getHeaders();
      headers[HEADER.accept] = 'text/event-stream';
      if (context.lastEventId !== undefined) headers[HEADER.lastEventId] = context.lastEventId;
      reply = await requester({ method: 'GET', url: this.#url, headers, exchange });
      const auth = await this.#host.authRetry(reply, authRetries);
      if (auth === true) return this.#get(context, exchange, authRetries + 1);
      excerpt = auth;
    } catch (error) {
      if (this.#host.closed || exchange.aborted) return;
      this.#host.fault(error);
      return this.#retry(context, exchange);
    }
    if (reply.status === 405 && standalone) {
      // "or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE
      // stream at this endpoint".
      await reply.discard();
      this.#forget(exchange);
      return;
    }
    if (reply.status === 404 && this.#host.hasSession()) {
      await reply.discard();
      this.#forget(exchange);
      this.#host.sessionLost(standalone);
      // The request belonged to the lost session: its response is gone with it.
      this.#abandon(context, 'Session not found while resuming the response stream');
      return;
    }
    const type = parseMediaType(reply.header(HEADER.contentType))?.type;
    if (reply.status !== 200 || type !== 'text/event-stream') {
      const body = excerpt ?? (await readPrefix(reply, 1_024));
      const message = `GET ${this.#url} failed with HTTP ${reply.status}`;
      this.#host.fault(new HttpStatusError({ status: reply.status, body, message }));
      // A refused resume (e.g. an expired event id) will not succeed by trying again.
      if (reply.status >= 400 && reply.status < 500) {
        this.#forget(exchange);
        this.#abandon(context, `Resuming the response stream failed with HTTP ${reply.status}`);
      } else {
        this.#retry(context, exchange);
      }
      return;
    }
    await this.consume(reply, context, exchange);
  }

  /**
   * A request's stream that can no longer deliver its response: fail the request now with an error
   * response (-32000) rather than leave the caller waiting for its timeout. No-op for the GET stream.
   */
  #abandon(context: StreamContext, reason: string): void {
    if (context.requestId !== undefined) this.#host.lose(context.requestId, reason);
  }

  #forget(exchange: Exchange): void {
    if (this.#standalone === exchange) this.#standalone = undefined;
  }

  /** `exchange`: the stream being retried, unless it was aborted on purpose (silence). */
  #retry(context: StreamContext, exchange: Exchange | undefined): void {
    if (this.#host.closed || exchange?.aborted === true) return;
    const policy = this.#reconnect;
    if (policy === undefined || context.attempt >= policy.maxAttempts) {
      if (exchange !== undefined) this.#forget(exchange);
      const limit = `reconnect.maxAttempts (${policy?.maxAttempts ?? 0})`;
      this.#host.fault(
        new Error(`Gave up re-opening the SSE stream after ${context.attempt} attempts: ${limit}`),
      );
      this.#abandon(
        context,
        `Gave up resuming the response stream after ${context.attempt} attempts: ${limit}`,
      );
      return;
    }
    const delay = reconnectDelay(policy, context.attempt, this.#serverRetryMs);
    context.attempt++;
    this.#exchanges.later(delay, () => {
      if (exchange?.aborted !== true) void this.open(context);
    });
  }
}
