// Imported, not the globals: Node defines `Buffer` and `process` on globalThis as getters (a call per use).
import { Buffer } from 'node:buffer';
import { nextTick } from 'node:process';
import {
  ConnectionClosedError,
  type JSONRPCMessage,
  SENT,
  type TransportSendOptions,
} from '@x/protocol/core';
import type { RawData, WebSocket } from 'ws';
import { CloseCode } from './constants.js';
import { SendBufferFullError, type SendStalledError } from './errors.js';
import { Heartbeat } from './heartbeat.js';
import { SendQueue } from './send-queue.js';
import type { WireSocket, WireSocketEvents } from './wire-socket.js';

interface Corkable {
  cork(): void;
  uncork(): void;
}

export interface NodeWireSocketOptions {
  /** 0 disables pings. */
  heartbeatIntervalMs: number;
  maxBufferedBytes: number;
  maxQueuedBytes: number;
  /** 0 disables the stall check. */
  sendStallTimeoutMs: number;
  closeTimeoutMs: number;
}

/** The wire a `ws` socket belongs to, for the listeners all wires share. */
const WIRE: unique symbol = Symbol('x-mcp.wire');
type TaggedSocket = WebSocket & { [WIRE]?: NodeWireSocket };

/**
 * Sockets that sent in the current turn (the first `turnCount` slots), and sockets corked in it (the
 * first `corkedCount`). Slots are cleared, not the arrays, so their storage is kept from turn to turn.
 */
const inTurn: Array<NodeWireSocket | undefined> = [];
let turnCount = 0;
const corked: Array<NodeWireSocket | undefined> = [];
let corkedCount = 0;

/** A `ws` socket (either side) under the MCP framing rules, with heartbeat and a bounded send buffer. */
export class NodeWireSocket implements WireSocket {
  readonly #socket: WebSocket;
  readonly #events: WireSocketEvents;
  readonly #queue: SendQueue<WebSocket>;
  readonly #heartbeat: Heartbeat | undefined;
  readonly #closeTimeoutMs: number;
  /** Made when someone awaits the close (see `close()`); settled by the socket's close event. */
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;
  #isClosed = false;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  #inTurn = false;
  #corked: Corkable | undefined;

  constructor(socket: WebSocket, events: WireSocketEvents, options: NodeWireSocketOptions) {
    this.#socket = socket;
    this.#events = events;
    this.#closeTimeoutMs = options.closeTimeoutMs;
    this.#queue = new SendQueue(socket, {
      maxBufferedBytes: options.maxBufferedBytes,
      maxQueuedBytes: options.maxQueuedBytes,
      sendStallTimeoutMs: options.sendStallTimeoutMs,
      onstall: NodeWireSocket.#onQueueStall,
      onwritten: NodeWireSocket.#onQueueWritten,
    });
    this.#heartbeat =
      options.heartbeatIntervalMs > 0 ? new Heartbeat(options.heartbeatIntervalMs, socket) : undefined;

    // Shared listeners (`ws` calls them with the socket as `this`), not four closures per connection.
    (socket as TaggedSocket)[WIRE] = this;
    socket.on('message', NodeWireSocket.#onSocketMessage);
    if (this.#heartbeat !== undefined) socket.on('pong', NodeWireSocket.#onSocketPong);
    socket.on('error', NodeWireSocket.#onSocketError);
    // `on`, not `once`: a socket closes once, and `once` wraps the listener in two more objects.
    socket.on('close', NodeWireSocket.#onSocketClose);
  }

  static readonly #onSocketMessage = function (this: WebSocket, data: RawData, isBinary: boolean): void {
    const wire = (this as TaggedSocket)[WIRE];
    if (wire === undefined) return;
    wire.#heartbeat?.markAlive();
    if (isBinary) {
      // SEP-1288: binary frames are not part of MCP and end the connection.
      wire.close(CloseCode.UnsupportedData, 'Binary frames are not supported').catch(() => {});
      return;
    }
    wire.#events.ontext(textOf(data));
  };

  static readonly #onSocketPong = function (this: WebSocket): void {
    const wire = (this as TaggedSocket)[WIRE];
    if (wire !== undefined) wire.#heartbeat?.markAlive();
  };

  static readonly #onSocketError = function (this: WebSocket, error: Error): void {
    const wire = (this as TaggedSocket)[WIRE];
    if (wire !== undefined) wire.#events.onerror(error);
  };

  /**
   * The peer stopped reading: report it on our side and end the connection with 1008, whose reason names
   * the option, so the peer (if it reads again at all) fails its pending requests at once. A peer that
   * reads nothing never sees the close frame; the close timeout then drops the socket.
   */
  static readonly #onQueueStall = (
    socket: WebSocket,
    error: SendBufferFullError | SendStalledError,
  ): void => {
    const wire = (socket as TaggedSocket)[WIRE];
    if (wire === undefined) return;
    wire.#events.onerror(error);
    const reason =
      error instanceof SendBufferFullError
        ? `Send queue over maxQueuedBytes (${error.limit})`
        : `Nothing sent for sendStallTimeoutMs (${error.timeoutMs})`;
    wire.close(CloseCode.PolicyViolation, reason).catch(() => {});
  };

  /**
   * A frame that waited for the socket left it: the peer reads, so a busy connection is alive even while
   * its pong waits behind megabytes of answers (issue #42: the heartbeat fails only a peer that stopped
   * reading, not one that is slow to get through a flood).
   */
  static readonly #onQueueWritten = (socket: WebSocket): void => {
    const wire = (socket as TaggedSocket)[WIRE];
    if (wire !== undefined) wire.#heartbeat?.markAlive();
  };

  static readonly #onSocketClose = function (this: WebSocket, code: number, reason: Buffer): void {
    const wire = (this as TaggedSocket)[WIRE];
    if (wire === undefined) return;
    wire.#isClosed = true;
    wire.#heartbeat?.stop();
    if (wire.#closeTimer !== undefined) clearTimeout(wire.#closeTimer);
    wire.#queue.fail(new ConnectionClosedError(`WebSocket closed (${code})`));
    wire.#events.onclose(code, reason.toString());
    wire.#resolveClosed?.();
  };

  send(
    text: string,
    message?: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#corked === undefined) {
      if (this.#inTurn) {
        this.#cork();
      } else {
        this.#inTurn = true;
        // A plain microtask ends the turn: a turn of one frame (sequential calls) needs nothing more.
        if (turnCount === 0) void SENT.then(NodeWireSocket.#endTurns);
        inTurn[turnCount++] = this;
      }
    }
    return this.#queue.send(text, message, options);
  }

  /**
   * Holds the rest of this turn's frames in the TCP socket, so the answers to the requests read in one
   * turn (or a burst of calls) leave in one write instead of one system call each. The turn's first
   * frame is not held: a lone answer (sequential calls) leaves without the wait (3-8% more sequential
   * calls/s in two A/B runs). The uncork is a `process.nextTick`, after the promise callbacks of the
   * turn that write most of those frames; only a turn that corks pays for the tick (some 25 calls into
   * Node's task queue and async hooks). `ws` exposes no API for it; without its `_socket` (another
   * implementation) frames simply go out one by one.
   */
  #cork(): void {
    const raw = (this.#socket as unknown as { _socket?: Partial<Corkable> })._socket;
    if (typeof raw?.cork !== 'function' || typeof raw.uncork !== 'function') return;
    this.#corked = raw as Corkable;
    raw.cork();
    if (corkedCount === 0) nextTick(NodeWireSocket.#uncorkAll);
    corked[corkedCount++] = this;
  }

  /**
   * Ends the turn of every socket that sent during it: one microtask for all of them, and no per-socket
   * callback (a closure per connection is memory a server with thousands of them pays for).
   */
  static #endTurns(): void {
    // A socket that starts a turn while this runs is appended and ended in the same pass.
    for (let i = 0; i < turnCount; i++) {
      const wire = inTurn[i];
      inTurn[i] = undefined;
      if (wire !== undefined) wire.#inTurn = false;
    }
    turnCount = 0;
  }

  /** Sends the held frames of every socket corked in the turn, in one write each. */
  static #uncorkAll(): void {
    let failure: { error: unknown } | undefined;
    for (let i = 0; i < corkedCount; i++) {
      const wire = corked[i];
      corked[i] = undefined;
      // One socket's failure must not leave the others corked; the first one is rethrown at the end.
      try {
        if (wire !== undefined) wire.#uncork();
      } catch (error) {
        failure ??= { error };
      }
    }
    corkedCount = 0;
    if (failure !== undefined) throw failure.error;
  }

  #uncork(): void {
    const raw = this.#corked;
    if (raw === undefined) return;
    this.#corked = undefined;
    raw.uncork();
  }

  close(code: number, reason: string): Promise<void> {
    if (this.#closeTimer === undefined && this.#socket.readyState !== this.#socket.CLOSED) {
      this.#socket.close(code, reason);
      // `ws` waits 30 s for the peer's close frame; a vanished peer should not hold close() that long.
      this.#closeTimer = setTimeout(() => this.#socket.terminate(), this.#closeTimeoutMs);
      this.#closeTimer.unref();
    }
    if (this.#isClosed) return Promise.resolve();
    this.#closed ??= new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    return this.#closed;
  }
}

/** `ws` hands text frames over as one Buffer; the other shapes only appear if a caller changed binaryType. */
function textOf(data: RawData): string {
  // `toString()` without arguments is UTF-8 and skips Node's encoding lookup (two calls per message).
  if (data instanceof Buffer) return data.toString();
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
