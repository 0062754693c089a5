import { BatchResponses, ConnectionClosedError, isJSONRPCRequest, readBatch, SENT } from '@x/protocol/core';
import { deliverMessage, InFlightSet, SendScheduler } from '@x/protocol/transport';
import type {
  RequestId,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@x/protocol/core';
import { encodeSseComment, encodeSseEvent } from '@x/protocol/http';
import type { SseSink } from './sse-sink.js';

const KEEP_ALIVE = encodeSseComment('keep-alive');

/** An event that found the stream congested, waiting to be written. */
interface HeldEvent {
  frame: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** What the server needs to create a session; not public API. */
export interface SseSessionInit {
  sessionId: string;
  /** The URL clients POST to, as it goes into the `endpoint` event. */
  endpoint: string;
  /** 0 disables keep-alive comments. */
  keepAliveMs: number;
  /** Called once when the session ends, whatever ended it. */
  onDispose: (sessionId: string) => void;
  /** Most messages one 2025-03-26 batch may hold. */
  maxBatchSize: number | undefined;
  /** Unsent bytes the stream may hold; a send finding more ends the session. */
  maxBufferedBytes: number;
}

/** The server's handle on a session: the transport for the user, plus what only the server may do. */
export interface SseSessionHandle {
  transport: SseServerTransport;
  deliver: (message: JSONRPCMessage, extra: MessageExtraInfo) => void;
  /**
   * A POST body that is a JSON array: delivered when the session negotiated 2025-03-26, else the -32600
   * error the POST is refused with.
   */
  deliverBatch: (values: unknown[], extra: MessageExtraInfo) => JSONRPCErrorResponse | undefined;
  /** The client went away (e.g. the GET request was aborted). */
  disconnect: () => void;
  /**
   * When the session last carried a message (ms, `Date.now`), or undefined while a request of the client
   * is unanswered: a busy session is never idle.
   */
  idleSince: () => number | undefined;
}

/**
 * One legacy HTTP+SSE session on the server: messages to the client go out as `message` events on the
 * GET stream; messages from the client arrive in POSTs that the SSE handler routes here by session id.
 *
 * Created by `createSseHandler` (one per GET) and handed to `onsession`; connect an MCP server to it.
 *
 * A session that negotiated 2025-03-26 (`setProtocolVersion`) takes JSON-RPC batches: a POST body that
 * is an array is delivered message by message, and the answers go out as one `message` event whose data
 * is the array.
 *
 * @example
 * ```ts
 * const sse = createSseHandler({ onsession: (transport) => mcpServer.connect(transport) });
 * ```
 */
export class SseServerTransport implements Transport {
  readonly sessionId: string;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  #sink: SseSink;
  #started = false;
  #closed = false;
  // POSTs that arrive before the MCP server called start() (onsession may connect asynchronously).
  #early: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo }> = [];
  #drainWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  /**
   * Events that found the stream congested, written when the client catches up, urgent first (issue
   * #42). Made on first use: most sessions never fall behind.
   */
  #held: SendScheduler<HeldEvent> | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #onDispose: (sessionId: string) => void;
  #maxBatchSize: number | undefined;
  #protocolVersion: string | undefined;
  /** Created by the first batch (2025-03-26 only): most sessions never see one. */
  #batches: BatchResponses | undefined;
  readonly #maxBufferedBytes: number;
  /** The client's requests not yet answered (nor cancelled): the session is busy while any remain. */
  readonly #inFlight = new InFlightSet<RequestId>();
  #lastActive = Date.now();

  private constructor(init: SseSessionInit, sink: SseSink) {
    this.sessionId = init.sessionId;
    this.#sink = sink;
    this.#onDispose = init.onDispose;
    this.#maxBatchSize = init.maxBatchSize;
    this.#maxBufferedBytes = init.maxBufferedBytes;
  }

  /** @internal Used by `SseServer`; `sink` carries the GET response body. */
  static open(init: SseSessionInit, sink: SseSink): SseSessionHandle {
    const transport = new SseServerTransport(init, sink);
    sink.bind({ drained: () => transport.#releaseWaiters(), gone: () => transport.#dispose(false) });
    // 2024-11-05 transports: the server MUST send the endpoint event first.
    sink.write(encodeSseEvent({ event: 'endpoint', data: init.endpoint }));
    if (init.keepAliveMs > 0) {
      transport.#keepAlive = setInterval(() => transport.#write(KEEP_ALIVE), init.keepAliveMs);
      // Node and Deno timers can be unref'd so an idle stream does not keep the process alive; browsers'
      // and Workers' numeric timer ids have no unref.
      (transport.#keepAlive as { unref?: () => void }).unref?.();
    }
    return {
      transport,
      deliver: (message, extra) => transport.#deliver(message, extra),
      deliverBatch: (values, extra) => transport.#deliverBatch(values, extra),
      disconnect: () => transport.#dispose(false),
      idleSince: () => (transport.#inFlight.size === 0 ? transport.#lastActive : undefined),
    };
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('SseServerTransport already started');
    this.#started = true;
    const early = this.#early;
    this.#early = [];
    for (const { message, extra } of early) this.#dispatch(message, extra);
  }

  /**
   * Not `async`: an event the stream takes without backpressure settles with the shared `SENT` promise,
   * which the engine does not watch (no promise per message). Never throws: failures are rejections.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#inFlight.size > 0 && !('method' in message)) this.#inFlight.delete(message.id as RequestId);
    const held = this.#batches?.take(message);
    if (held !== undefined) return held;
    return this.#sendEvent(message, options);
  }

  /** The negotiated version: batches are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #sendEvent(
    payload: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    try {
      if (this.#closed) throw new ConnectionClosedError('SSE session closed');
      this.#lastActive = Date.now();
      const held = this.#held;
      const buffered = this.#sink.bufferedBytes + (held === undefined ? 0 : held.queuedBytes);
      if (buffered >= this.#maxBufferedBytes) {
        // The client does not read its stream: waiting for it would buffer without end (the engine does
        // not wait for sends). The session ends; the client sees its stream close.
        const error = new ConnectionClosedError(
          `SSE session ${this.sessionId} ended: the client is not reading its event stream ` +
            `(${buffered} unsent bytes, over maxBufferedBytes (${this.#maxBufferedBytes}))`,
        );
        this.#dispose(false);
        this.onerror?.(error);
        throw error;
      }
      const frame = encodeSseEvent({ event: 'message', data: JSON.stringify(payload) });
      if (this.#sink.congested || (held !== undefined && held.size > 0)) {
        return this.#hold(frame, payload, options);
      }
      if (!this.#write(frame)) throw new ConnectionClosedError('SSE session closed');
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#sink.congested) return SENT;
    // Backpressure: the event is queued, but the caller waits until the client reads, so a slow client
    // cannot make the server buffer without bound.
    return new Promise<void>((resolve, reject) => this.#drainWaiters.push({ resolve, reject }));
  }

  /** Ends the SSE stream (the client sees the connection close) and forgets the session. */
  async close(): Promise<void> {
    this.#dispose(true);
  }

  #write(frame: string): boolean {
    if (this.#closed) return false;
    try {
      this.#sink.write(frame);
      return true;
    } catch (cause) {
      // The stream was errored or cancelled under us: the client is gone.
      this.#dispose(false);
      this.onerror?.(new ConnectionClosedError('SSE stream is no longer writable', { cause }));
      return false;
    }
  }

  /** Writes to a stream the session is ending gracefully; false when the stream is gone already. */
  #writeQuietly(frame: string): boolean {
    try {
      this.#sink.write(frame);
      return true;
    } catch {
      return false;
    }
  }

  #deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    if (this.#closed) return;
    if (!this.#started) {
      this.#early.push({ message, extra });
      return;
    }
    const refusal = this.#batches?.duplicateAnswer(message);
    if (refusal === undefined) this.#dispatch(message, extra);
    else this.#sendEvent(refusal).catch((error: unknown) => this.#reportError(error));
  }

  #deliverBatch(values: unknown[], extra: MessageExtraInfo): JSONRPCErrorResponse | undefined {
    if (this.#closed) return undefined;
    // Before start() no handshake can have happened, so the version check refuses any batch here.
    const reading = readBatch(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#maxBatchSize,
    });
    if (!reading.ok) return reading.error;
    this.#batches ??= new BatchResponses({ write: (responses) => this.#sendEvent(responses) });
    this.#batches.screen(reading);
    this.#batches.open(reading)?.catch((error: unknown) => this.#reportError(error));
    for (const message of reading.messages) {
      if (this.#closed) break;
      this.#dispatch(message, extra);
    }
    return undefined;
  }

  #reportError(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  #dispatch(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.#lastActive = Date.now();
    if (isJSONRPCRequest(message)) this.#inFlight.add(message.id);
    else if (this.#inFlight.size > 0 && 'method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request is not answered (cancellation: the receiver SHOULD NOT respond).
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#inFlight.delete(requestId);
    }
    // The POST was accepted; a throwing handler is the application's fault, not the client's.
    deliverMessage(this, message, extra);
  }

  /** The client is behind: `frame` waits, by its class and request, for the stream to drain. */
  #hold(
    frame: string,
    payload: JSONRPCMessage | readonly JSONRPCMessage[],
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    // Bounded by `maxBufferedBytes` (checked by the caller, held bytes included), not by count.
    this.#held ??= new SendScheduler({
      maxQueuedBytes: Number.POSITIVE_INFINITY,
      maxQueuedMessages: Number.POSITIVE_INFINITY,
    });
    const held = this.#held;
    return new Promise<void>((resolve, reject) => {
      held.pushMessage({ frame, resolve, reject }, frame.length, payload, options);
    });
  }

  /** The client caught up: held events go out, most urgent first, until it falls behind again. */
  #releaseWaiters(): void {
    const held = this.#held;
    if (held !== undefined) {
      while (held.size > 0 && !this.#closed && !this.#sink.congested) {
        const event = held.shift() as HeldEvent;
        if (this.#write(event.frame)) event.resolve();
        else event.reject(new ConnectionClosedError('SSE session closed'));
      }
    }
    const waiters = this.#drainWaiters;
    if (waiters.length === 0) return;
    this.#drainWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  /**
   * `graceful`: we end the stream, so queued events still reach the client. Otherwise the client went
   * away and events waiting to be read never will be.
   */
  #dispose(graceful: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#batches?.clear();
    this.#inFlight.clear();
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    this.#early = [];
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const waiter of waiters) {
      if (graceful) waiter.resolve();
      else waiter.reject(new ConnectionClosedError('SSE client disconnected'));
    }
    // Graceful: held events go into the stream in their order, to be read before its end.
    for (const event of this.#held?.clear() ?? []) {
      if (graceful && this.#writeQuietly(event.frame)) event.resolve();
      else event.reject(new ConnectionClosedError('SSE client disconnected'));
    }
    // Graceful: queued events still reach the client before the end. Otherwise nobody will read them.
    if (graceful) this.#sink.end();
    else this.#sink.abort(new ConnectionClosedError('SSE client disconnected'));
    this.#onDispose(this.sessionId);
    this.onclose?.();
  }
}
