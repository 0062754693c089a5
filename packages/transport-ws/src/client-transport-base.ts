import {
  BatchResponses,
  ConnectionClosedError,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type ParseOptions,
  type ReconnectOptions,
  type RequestId,
  type ResolvedReconnectOptions,
  reconnectDelay,
  resolveReconnect,
  type Transport,
  type TransportSendOptions,
  TransportLostError,
  transportLostResponse,
} from '@x/protocol/core';
import { type HttpClientAuthOptions, MAX_AUTH_RETRIES } from '@x/protocol/http';
import { deliverMessage, InFlightSet } from '@x/protocol/transport';
import { CloseCode } from './constants.js';
import { WebSocketHandshakeError } from './errors.js';
import { decodeText, InvalidText } from './incoming-text.js';
import { sendMessage } from './outgoing-text.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

/**
 * How the WebSocket client reconnects when `reconnect` is `true` (or leaves fields out): 500 ms, doubling
 * per failure up to 30 s, 10 failures in a row, each delay cut by up to half at random.
 *
 * @example
 * ```ts
 * new WebSocketClientTransport(url, { reconnect: { ...WEBSOCKET_RECONNECT_DEFAULTS, maxAttempts: 50 } });
 * ```
 */
export const WEBSOCKET_RECONNECT_DEFAULTS: ResolvedReconnectOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  maxAttempts: 10,
  jitter: 0.5,
};

/** The auth hooks the shared client runs on a refused handshake (the Node build has them). */
export type HandshakeAuthHooks = Pick<HttpClientAuthOptions, 'onUnauthorized' | 'onForbidden'>;

/**
 * Options both client builds (Node and browser) understand.
 *
 * @example
 * ```ts
 * // The same options work with the Node and the browser build.
 * const transport = new WebSocketClientTransport('wss://mcp.example.com/mcp', {
 *   maxBufferedBytes: 1024 * 1024,
 *   closeTimeoutMs: 500,
 *   reconnect: true,
 * });
 * ```
 */
export interface WebSocketClientCommonOptions {
  /**
   * Largest incoming message in bytes; a bigger one closes the connection with 1009. Default 4 MiB.
   *
   * @default {@link DEFAULT_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number | undefined;
  /**
   * Unsent bytes the socket may hold; further messages wait for it to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes of messages that may wait for the socket to drain; past it the server counts as not reading
   * and the connection closes with 1008 (`SendBufferFullError`). Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long messages may wait without one leaving the socket; past it the connection closes with 1008
   * (`SendStalledError`). 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * How long `close()` waits for the server's close frame. Default 2 s.
   *
   * @default {@link DEFAULT_CLOSE_TIMEOUT_MS}
   */
  closeTimeoutMs?: number | undefined;
  /**
   * Reconnect after an unexpected drop (`true` for the defaults). While reconnecting the transport stays
   * the same object, `onclose` does not fire and `send()` rejects with `ConnectionClosedError`; requests
   * that were in flight are answered with a synthesized `ConnectionClosed` (-32000) error response; once
   * connected again `onreconnect` fires. `onclose` fires only when the attempts run out. Off by default;
   * `true` uses `WEBSOCKET_RECONNECT_DEFAULTS`.
   *
   * @default false
   */
  reconnect?: boolean | ReconnectOptions | undefined;
  /**
   * Most messages one 2025-03-26 batch from the server may hold; larger ones get -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * JSON nested deeper than this is answered with -32700 (and `onerror`) before it is parsed. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
}

/** Opens one socket; resolves once it is open and speaks `mcp`; gives up when `signal` aborts. */
export type OpenSocket = (events: WireSocketEvents, signal: AbortSignal) => Promise<WireSocket>;

type State = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * A server that closes on purpose, or for a reason a new connection would hit again, is not reconnected
 * to: normal closure, protocol error, unsupported data, invalid payload, policy violation, too big.
 */
const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  CloseCode.Normal,
  CloseCode.ProtocolError,
  CloseCode.UnsupportedData,
  CloseCode.InvalidPayload,
  CloseCode.PolicyViolation,
  CloseCode.MessageTooBig,
]);

/**
 * The client transport's behaviour, shared by the Node and browser builds; each build only says how to
 * open a socket.
 *
 * Batches: the client MUST support receiving them on 2025-03-26 (basic: "MUST support receiving
 * JSON-RPC batches"). Once that version is negotiated (`setProtocolVersion`) an array frame is delivered
 * message by message and the answers to the server requests in it go back as one array frame; on any
 * other version the batch is refused with one -32600 error frame (id null).
 */
export class WebSocketClientTransportBase implements Transport {
  /** The peer is across a network: a `Client` runs its MCP heartbeat by default (`Transport.network`). */
  readonly network = true;
  readonly #open: OpenSocket;
  /** The server's URL, for errors: each names the peer. */
  readonly #peer: string;
  readonly #reconnect: ResolvedReconnectOptions | undefined;
  readonly #auth: HandshakeAuthHooks;
  /** Ids of our requests still awaiting a response; tracked only when reconnecting is on. */
  readonly #inFlight: InFlightSet<RequestId> | undefined;
  #state: State = 'idle';
  #socket: WireSocket | undefined;
  #generation = 0;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #connecting: AbortController | undefined;
  readonly #maxBatchSize: number | undefined;
  readonly #parseOptions: ParseOptions;
  readonly #batches = new BatchResponses({ write: (responses) => this.#write(responses) });
  #protocolVersion: string | undefined;

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /**
   * Fires after the connection was re-established. The server sees a brand-new connection, so the client
   * layer re-runs whatever its era needs (legacy: `initialize`; modern: nothing). A throw is reported
   * through `onerror`; a promise it returns reports its own failure (the transport does not, again).
   */
  onreconnect?: (() => void | Promise<void>) | undefined;
  /**
   * Set with `reconnect` (`Transport.resetConnection`): drops the socket as dead and reconnects, as after
   * an unexpected drop. The client's heartbeat calls it on a link that stopped answering, so a silent
   * connection is replaced instead of ending the session. Unset without `reconnect`.
   */
  readonly resetConnection: ((reason: Error) => void) | undefined;
  sessionId?: string | undefined;
  /**
   * Why the connection ended, once it did and not by our `close()`: a `ConnectionClosedError` naming the
   * server URL, the close code and reason. Set before `onclose`; the engine rejects pending requests
   * with it.
   */
  closeReason: Error | undefined;

  protected constructor(
    open: OpenSocket,
    options: WebSocketClientCommonOptions,
    url: string | URL,
    auth: HandshakeAuthHooks = {},
  ) {
    this.#open = open;
    this.#peer = String(url);
    this.#auth = auth;
    this.#reconnect = resolveReconnect(options.reconnect, WEBSOCKET_RECONNECT_DEFAULTS, false);
    this.resetConnection = this.#reconnect === undefined ? undefined : (reason) => this.#reset(reason);
    this.#inFlight = this.#reconnect === undefined ? undefined : new InFlightSet();
    this.#maxBatchSize = options.maxBatchSize;
    this.#parseOptions = { maxNestingDepth: options.maxNestingDepth };
  }

  /** Whether a socket is open right now (false while reconnecting). */
  get connected(): boolean {
    return this.#state === 'open';
  }

  async start(): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError('WebSocketClientTransport is closed');
    if (this.#state !== 'idle') throw new Error('WebSocketClientTransport already started');
    this.#state = 'connecting';
    try {
      await this.#connectWithAuth();
    } catch (error) {
      this.#state = 'closed';
      throw error;
    }
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const held = this.#batches.take(message);
    if (held !== undefined) return held;
    const sent = this.#write(message, options);
    const inFlight = this.#inFlight;
    if (inFlight === undefined || !isJSONRPCRequest(message)) return sent;
    inFlight.add(message.id);
    return forgetOnFailure(sent, inFlight, message.id);
  }

  #write(payload: JSONRPCMessage | readonly JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    const socket = this.#socket;
    if (this.#state !== 'open' || socket === undefined) {
      if (this.closeReason !== undefined) return Promise.reject(this.closeReason);
      const why = this.#state === 'reconnecting' ? 'WebSocket is reconnecting' : 'WebSocket is not open';
      return Promise.reject(new ConnectionClosedError(why));
    }
    return sendMessage(socket, payload, options);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#batches.clear();
    this.#generation++;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#connecting?.abort();
    this.#inFlight?.clear();
    const socket = this.#socket;
    this.#socket = undefined;
    this.onclose?.();
    await socket?.close(CloseCode.Normal, 'Closed');
  }

  /** The negotiated version: batches from the server are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * Connects; a 401 (403) answer to the upgrade goes to `onUnauthorized` (`onForbidden`), and when the
   * hook has new credentials the upgrade is tried again right away, at most `MAX_AUTH_RETRIES` times.
   */
  async #connectWithAuth(): Promise<void> {
    for (let retries = 0; ; retries++) {
      try {
        await this.#connect();
        return;
      } catch (error) {
        const response = error instanceof WebSocketHandshakeError ? error.response : undefined;
        const hook =
          response?.status === 401
            ? this.#auth.onUnauthorized
            : response?.status === 403
              ? this.#auth.onForbidden
              : undefined;
        if (retries >= MAX_AUTH_RETRIES || response === undefined || hook === undefined) throw error;
        if (!(await hook(response))) throw error;
        if (this.#state === 'closed') throw new ConnectionClosedError('Transport closed while connecting');
      }
    }
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    // Events can fire between the socket opening and this method resuming (Node runs nextTick before
    // promise continuations); a drop in that gap must fail this attempt, not strand a dead socket.
    let adopted = false;
    let droppedEarly = false;
    const events: WireSocketEvents = {
      ontext: (text) => {
        if (generation === this.#generation) this.#ontext(text);
      },
      onerror: (error) => {
        if (generation === this.#generation) this.onerror?.(error);
      },
      onclose: (code, reason) => {
        if (!adopted) droppedEarly = true;
        else if (generation === this.#generation) this.#ondrop(code, reason);
      },
    };
    const connecting = new AbortController();
    this.#connecting = connecting;
    let socket: WireSocket;
    try {
      socket = await this.#open(events, connecting.signal);
    } finally {
      if (this.#connecting === connecting) this.#connecting = undefined;
    }
    if (this.#state === 'closed' || generation !== this.#generation) {
      await socket.close(CloseCode.Normal, 'Closed');
      throw new ConnectionClosedError('Transport closed while connecting');
    }
    if (droppedEarly) {
      throw new ConnectionClosedError(`WebSocket connection to ${this.#peer} closed right after opening`);
    }
    adopted = true;
    this.#socket = socket;
    this.#state = 'open';
  }

  #ontext(text: string): void {
    const decoded = decodeText(text, this.#parseOptions);
    if (Array.isArray(decoded)) {
      this.#onBatch(decoded);
      return;
    }
    if (!(decoded instanceof InvalidText)) {
      this.#deliver(decoded);
      return;
    }
    this.onerror?.(decoded.error);
    if (this.#socket !== undefined) sendMessage(this.#socket, decoded.reply).catch(() => {});
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#inFlight !== undefined && isJSONRPCResponse(message) && message.id != null) {
      this.#inFlight.delete(message.id);
    }
    // A throwing handler must not unwind into the socket's data event and crash the process.
    deliverMessage(this, message);
  }

  #onBatch(values: unknown[]): void {
    this.#batches.receive(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#maxBatchSize,
      deliver: (message) => {
        // close() from a handler stops the rest of the batch, as it would the rest of a connection.
        if (this.#state === 'closed') return false;
        this.#deliver(message);
        return true;
      },
      refuse: (error) => this.#write(error),
      onerror: (error) => this.onerror?.(error),
    });
  }

  #ondrop(code: number, reason: string): void {
    this.#socket = undefined;
    // Answers to a dropped connection's batches have nobody to go to.
    this.#batches.clear();
    if (this.#state === 'closed') return;
    const what = describeClose(this.#peer, code, reason);
    if (this.#reconnect === undefined || FINAL_CLOSE_CODES.has(code)) {
      this.#state = 'closed';
      this.#inFlight?.clear();
      // The engine fails the requests still pending with it (Transport.closeReason), so the caller
      // learns the server, the close code and the reason, not just "Connection closed".
      this.closeReason = new ConnectionClosedError(what);
      // A clean close (1000) is the server ending the session on purpose; anything else is a fault.
      if (code !== CloseCode.Normal) this.onerror?.(this.closeReason);
      this.onclose?.();
      return;
    }
    this.#state = 'reconnecting';
    this.#failInFlight(what, { code, reason });
    this.#attempt = 0;
    this.#schedule(undefined);
  }

  #reset(reason: Error): void {
    const socket = this.#socket;
    if (this.#state !== 'open' || socket === undefined) return;
    // The old socket's events no longer count; its close handshake may wait for a peer that is gone.
    this.#generation++;
    socket.close(CloseCode.GoingAway, 'heartbeat timeout').catch(() => {});
    this.#ondrop(CloseCode.Abnormal, reason.message);
  }

  /**
   * Responses to requests sent on the dropped connection can never arrive (the server's side of it is
   * gone), so each one is answered now, naming the server, close code and reason, instead of waiting
   * for the request timeout. The request may or may not have run on the server; the error says so.
   */
  #failInFlight(what: string, data: Record<string, unknown>): void {
    const inFlight = this.#inFlight;
    if (inFlight === undefined || inFlight.size === 0) return;
    const ids = [...inFlight];
    inFlight.clear();
    const lost = new TransportLostError(`${what}; the response never arrived (the request may have run)`, {
      transport: 'websocket',
      data,
    });
    for (const id of ids) {
      if (this.#state !== 'reconnecting') return;
      this.onmessage?.(transportLostResponse(id, lost));
    }
  }

  #schedule(lastError: unknown): void {
    const options = this.#reconnect;
    if (options === undefined || this.#state !== 'reconnecting') return;
    this.#attempt++;
    if (this.#attempt > options.maxAttempts) {
      this.#giveUp(lastError);
      return;
    }
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#reconnectNow();
      },
      reconnectDelay(options, this.#attempt - 1),
    );
  }

  async #reconnectNow(): Promise<void> {
    try {
      await this.#connectWithAuth();
    } catch (error) {
      if (this.#state !== 'reconnecting') return;
      if (isFinalHandshakeError(error)) this.#giveUp(error);
      else this.#schedule(error);
      return;
    }
    this.#attempt = 0;
    let resync: Promise<void> | void | undefined;
    try {
      resync = this.onreconnect?.();
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    // A promise the hook returns (the Client's new handshake) reports its own failure through onerror;
    // reporting its rejection here as well would report one failed handshake twice.
    if (resync !== undefined) await resync.catch(() => {});
  }

  #giveUp(lastError: unknown): void {
    this.#state = 'closed';
    const last = lastError instanceof Error ? `: ${lastError.message}` : '';
    this.closeReason = new ConnectionClosedError(
      `WebSocket reconnect to ${this.#peer} gave up after ${this.#attempt - 1} attempts${last}`,
      { cause: lastError },
    );
    this.onerror?.(this.closeReason);
    this.onclose?.();
  }
}

const CLOSE_NAMES = new Map<number, string>([
  [1000, 'normal closure'],
  [1001, 'going away'],
  [1002, 'protocol error'],
  [1003, 'unsupported data'],
  [1006, 'abnormal closure: no close frame'],
  [1007, 'invalid payload'],
  [1008, 'policy violation'],
  [1009, 'message too big'],
  [1011, 'internal error'],
  [1012, 'service restart'],
  [1013, 'try again later'],
]);

/** "WebSocket connection to ws://… closed: code 1009 (message too big), reason "…"" */
function describeClose(peer: string, code: number, reason: string): string {
  const name = CLOSE_NAMES.get(code);
  const why = reason === '' ? '' : `, reason ${JSON.stringify(reason)}`;
  return `WebSocket connection to ${peer} closed: code ${code}${name === undefined ? '' : ` (${name})`}${why}`;
}

/** A 4xx answer to the upgrade (other than timeout/rate limit) will not change on retry. */
function isFinalHandshakeError(error: unknown): boolean {
  return (
    error instanceof WebSocketHandshakeError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * `sent`, forgetting `id` if it fails. Out of `send()` so that the closure's context is allocated only
 * here (V8 makes it on every call of a function holding the closure, whichever branch runs).
 */
function forgetOnFailure(
  sent: Promise<void>,
  inFlight: InFlightSet<RequestId>,
  id: RequestId,
): Promise<void> {
  return sent.catch((error: unknown) => {
    inFlight.delete(id);
    throw error;
  });
}
