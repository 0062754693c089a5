import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import {
  type AuthInfo,
  BatchResponses,
  ConnectionClosedError,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type ParseOptions,
  type RequestInfo,
  type Transport,
  type TransportSendOptions,
} from '@x/protocol/core';
import { deliverMessage, randomUuid } from '@x/protocol/transport';
import type { WebSocket } from 'ws';
import {
  CloseCode,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from './constants.js';
import { decodeText, InvalidText } from './incoming-text.js';
import { NodeWireSocket } from './node-wire-socket.js';
import { sendMessage } from './outgoing-text.js';
import type { WireSocketEvents } from './wire-socket.js';

/**
 * Options of `new WebSocketServerTransport(options)`, for a socket from your own `ws` server.
 *
 * @example
 * ```ts
 * const wss = new WebSocketServer({
 *   port: 8080,
 *   handleProtocols: (protocols) => protocols.has(MCP_SUBPROTOCOL) && MCP_SUBPROTOCOL,
 * });
 * wss.on('connection', (socket, request) => {
 *   void mcpServer.connect(new WebSocketServerTransport({ socket, request, keepAliveMs: 10_000 }));
 * });
 * ```
 */
export interface WebSocketServerTransportOptions {
  /** An accepted `ws` socket that negotiated the `mcp` subprotocol. */
  socket: WebSocket;
  /** The upgrade request; its URL and headers reach handlers as `extra.requestInfo`. */
  request?: IncomingMessage | undefined;
  /**
   * The client's address for `extra.requestInfo.clientAddress` (the listener passes the one it read
   * through `trustedProxies`). Default: the upgrade socket's peer.
   */
  clientAddress?: string | undefined;
  /** Who the caller is (e.g. from `WebSocketListener`'s `authenticate`); every message carries it as `extra.authInfo`. */
  authInfo?: AuthInfo | undefined;
  /**
   * Keep-alive (ping) period; a peer silent for a whole period after a ping is dropped. 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_KEEP_ALIVE_MS}
   */
  keepAliveMs?: number | undefined;
  /**
   * Unsent bytes the socket may hold; further messages wait for it to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes of messages that may wait for the socket to drain; past it the peer counts as not reading and
   * the connection closes with 1008 (`SendBufferFullError` via `onerror`). Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long messages may wait without one leaving the socket; past it the connection closes with 1008
   * (`SendStalledError` via `onerror`). 0 disables. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * How long `close()` waits for the peer's close frame. Default 2 s.
   *
   * @default {@link DEFAULT_CLOSE_TIMEOUT_MS}
   */
  closeTimeoutMs?: number | undefined;
  /**
   * Most messages one 2025-03-26 batch may hold; larger ones are refused with -32600. Default 1000.
   *
   * @default {@link DEFAULT_MAX_BATCH_SIZE}
   */
  maxBatchSize?: number | undefined;
  /**
   * JSON nested deeper than this is answered with -32700 before it is parsed. Default 128.
   *
   * @default {@link DEFAULT_MAX_NESTING_DEPTH}
   */
  maxNestingDepth?: number | undefined;
}

/** Set by the class's static block (private fields are reachable only from inside it). */
let setClosedHook: (
  transport: WebSocketServerTransport,
  hook: (transport: WebSocketServerTransport) => void,
) => void;

/**
 * The server end of one WebSocket connection. `createWebSocketHandler` creates one per accepted connection;
 * build one yourself only when you run your own `ws` server.
 *
 * Incoming frames wait (the socket is paused) until `start()`, so nothing is lost between the upgrade and
 * `connect()`. A connection that is never started stops answering pings and is dropped by the heartbeat.
 *
 * A frame holding a JSON array is a JSON-RPC batch: on a session that negotiated 2025-03-26
 * (`setProtocolVersion`) each message is delivered and the answers go out as one array frame; on any
 * other version (or before `initialize`) it is refused with one -32600 error frame (id null).
 *
 * @example
 * ```ts
 * wss.on('connection', (socket, request) => {
 *   void mcpServer.connect(new WebSocketServerTransport({ socket, request }));
 * });
 * ```
 */
export class WebSocketServerTransport implements Transport {
  readonly #wire: NodeWireSocket;
  readonly #socket: WebSocket;
  readonly #extra: MessageExtraInfo | undefined;
  readonly #maxBatchSize: number | undefined;
  readonly #parseOptions: ParseOptions;
  /** Created by the first batch (2025-03-26 only): most sessions never see one. */
  #batches: BatchResponses | undefined;
  #protocolVersion: string | undefined;
  #early: string[] | undefined = [];
  #started = false;
  #closed = false;
  /** The listener's bookkeeping (see `onTransportClosed`): one shared function, no listener of its own. */
  #closedHook: ((transport: WebSocketServerTransport) => void) | undefined;

  static {
    setClosedHook = (transport, hook) => {
      transport.#closedHook = hook;
    };
  }

  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** One WebSocket connection is one session; the id is random and only names it (logs, `extra`). */
  sessionId: string | undefined = randomUuid();

  constructor(options: WebSocketServerTransportOptions) {
    this.#socket = options.socket;
    const requestInfo =
      options.request === undefined
        ? undefined
        : new UpgradeRequestInfo(options.request, options.clientAddress);
    this.#extra =
      requestInfo === undefined && options.authInfo === undefined
        ? undefined
        : { requestInfo, authInfo: options.authInfo };
    this.#maxBatchSize = options.maxBatchSize;
    this.#parseOptions = { maxNestingDepth: options.maxNestingDepth };
    this.#wire = new NodeWireSocket(options.socket, new WebSocketServerTransport.#WireEvents(this), {
      heartbeatIntervalMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
      sendStallTimeoutMs: options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS,
      closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
    });
    options.socket.pause();
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('WebSocketServerTransport already started');
    if (this.#closed) throw new ConnectionClosedError('WebSocket closed before start()');
    this.#started = true;
    const early = this.#early ?? [];
    this.#early = undefined;
    for (const text of early) this.#ontext(text);
    this.#socket.resume();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const held = this.#batches?.take(message);
    if (held !== undefined) return held;
    return this.#write(message, options);
  }

  #write(payload: JSONRPCMessage | readonly JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError());
    return sendMessage(this.#wire, payload, options);
  }

  async close(): Promise<void> {
    await this.closeWith(CloseCode.Normal, 'Closed');
  }

  /** Closes with a specific close code, e.g. 1001 when the server shuts down. */
  async closeWith(code: number, reason: string): Promise<void> {
    if (this.#closed) return;
    const closing = this.#wire.close(code, reason);
    this.#onclosed();
    // A never-started socket is paused; it must read the peer's close frame to finish the handshake.
    this.#socket.resume();
    await closing;
  }

  /** The negotiated version: batches are accepted only on 2025-03-26. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #ontext(text: string): void {
    if (this.#early !== undefined) {
      // `pause()` stops reading, yet frames already parsed may still arrive.
      this.#early.push(text);
      return;
    }
    if (this.#closed) return;
    const decoded = decodeText(text, this.#parseOptions);
    if (Array.isArray(decoded)) {
      this.#onBatch(decoded);
      return;
    }
    if (!(decoded instanceof InvalidText)) {
      const refusal = this.#batches?.duplicateAnswer(decoded);
      if (refusal === undefined) this.#deliver(decoded);
      else sendMessage(this.#wire, refusal).catch(() => {});
      return;
    }
    this.onerror?.(decoded.error);
    sendMessage(this.#wire, decoded.reply).catch(() => {});
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#closed) return;
    // A throwing handler must not unwind into the socket's data event and crash the process.
    deliverMessage(this, message, this.#extra);
  }

  #onBatch(values: unknown[]): void {
    this.#batches ??= new BatchResponses({ write: (responses) => this.#write(responses) });
    this.#batches.receive(values, {
      protocolVersion: this.#protocolVersion,
      maxBatchSize: this.#maxBatchSize,
      deliver: (message) => this.#deliver(message),
      refuse: (error) => sendMessage(this.#wire, error),
      onerror: (error) => this.onerror?.(error),
    });
  }

  /** The socket's events, as one small object per session instead of three closures. */
  static readonly #WireEvents = class implements WireSocketEvents {
    readonly #transport: WebSocketServerTransport;

    constructor(transport: WebSocketServerTransport) {
      this.#transport = transport;
    }

    ontext(text: string): void {
      this.#transport.#ontext(text);
    }

    onerror(error: Error): void {
      this.#transport.onerror?.(error);
    }

    onclose(): void {
      this.#transport.#onclosed();
    }
  };

  #onclosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#early = undefined;
    this.#batches?.clear();
    this.#closedHook?.(this);
    this.onclose?.();
  }
}

/**
 * Calls `hook(transport)` once when the transport closes (either side), before its `onclose`. For
 * `WebSocketHandler`, which tracks its open connections this way instead of with a `close` listener
 * per socket (`once` costs three objects a connection). Internal: not exported from the package.
 */
export function onTransportClosed(
  transport: WebSocketServerTransport,
  hook: (transport: WebSocketServerTransport) => void,
): void {
  setClosedHook(transport, hook);
}

/**
 * The upgrade request as handlers see it (`extra.requestInfo`), kept for the connection's lifetime. Its
 * URL is parsed on first read and then kept: most handlers never read it, and a parsed `URL` is the
 * largest part of an idle connection's request info. `url` is an accessor, so a spread copy
 * (`{ ...requestInfo }`) leaves it out; read it from the original.
 */
class UpgradeRequestInfo implements RequestInfo {
  readonly method: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly clientAddress: string | undefined;
  /** The request target until parsed; then the URL, or null when the Host header made it unparsable. */
  #url: string | URL | null;

  constructor(request: IncomingMessage, clientAddress: string | undefined) {
    this.method = request.method;
    this.headers = request.headers;
    this.clientAddress = clientAddress ?? request.socket.remoteAddress;
    this.#url = request.url ?? '/';
  }

  get url(): URL | undefined {
    const url = this.#url;
    if (typeof url !== 'string') return url ?? undefined;
    try {
      this.#url = new URL(url, `http://${this.headers.host ?? 'localhost'}`);
    } catch {
      // A malformed Host header only costs handlers the URL, not the connection.
      this.#url = null;
    }
    return this.#url ?? undefined;
  }
}
