// Imported, not the global: Node defines `Buffer` on globalThis as a getter (a call per use).
import { Buffer } from 'node:buffer';
import {
  ConnectionClosedError,
  type JSONRPCMessage,
  SENT,
  type TransportSendOptions,
} from '@x/protocol/core';
import { SendScheduler } from '@x/protocol/transport';
import { SendBufferFullError, SendStalledError } from './errors.js';

/** The part of a `ws` socket the queue writes to. */
export interface QueueSocket {
  readonly bufferedAmount: number;
  /** `ws`'s ready states; frames go out only while it is `OPEN` (1). */
  readonly readyState: number;
  send(data: string, callback?: (error?: Error | null) => void): void;
}

/** The bounds of one queue and what it calls when the peer stopped reading. */
export interface SendQueueOptions<S extends QueueSocket = QueueSocket> {
  /** Bytes the socket may hold; a frame that finds it this full waits in the queue instead. */
  maxBufferedBytes: number;
  /** Bytes of frames waiting in the queue (not yet handed to the socket); past it the peer is given up. */
  maxQueuedBytes: number;
  /** How long the socket may hold frames without writing one out before the peer is given up; 0: never. */
  sendStallTimeoutMs: number;
  /**
   * The peer is not reading (a bound above was reached): the queue has failed every waiting send with
   * `error`; the owner reports it and ends the connection. Called at most once, with the queue's socket
   * (so one shared function serves every connection, instead of a closure each).
   */
  onstall(socket: S, error: SendBufferFullError | SendStalledError): void;
  /**
   * A frame that had to wait left the socket: the peer is reading (slowly, maybe), which a liveness
   * check may count as a sign of life. Called with the queue's socket, for the same reason as `onstall`.
   */
  onwritten?: ((socket: S) => void) | undefined;
}

/** `WebSocket.OPEN`. */
const OPEN = 1;

interface PendingSend {
  /** The frame while it waits in the queue; undefined once handed to the socket. */
  data: string | undefined;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Bytes the socket may hold after a send that still settles at once: this turn's batch of frames, held
 * until the turn ends and then written together (see `NodeWireSocket`).
 */
export const EAGER_BUFFER_BYTES = 64 * 1024;

/**
 * Outgoing frames of one socket, with backpressure and bounded memory. A frame that finds nothing
 * waiting and leaves the socket holding at most `EAGER_BUFFER_BYTES` (the frames of this turn, or a
 * kernel that keeps up) settles at once with a shared settled promise and is written without a
 * callback: a write callback makes Node's stream schedule a `process.nextTick` per write (some 25 calls
 * into its task queue and async hooks), where a callback-less write schedules none. Past that bound a
 * frame settles when it has been handed to the kernel (its own write callback), which gives awaiting
 * senders backpressure.
 *
 * A frame that finds the socket holding `maxBufferedBytes` or more is not refused (the engine does not
 * retry an answer, so a refusal loses it): it waits here, in a `SendScheduler` (urgent first, never past
 * a frame of its own request; issue #42), and is handed to the socket as the write callbacks of earlier
 * frames show the socket draining. A burst of large answers thus leaves as
 * fast as the peer reads. Only a peer that really stops reading ends the connection, through `onstall`:
 * when the waiting frames would pass `maxQueuedBytes`, or when no frame leaves the socket for
 * `sendStallTimeoutMs`. Nothing is dropped silently: every waiting send rejects with that error.
 *
 * Write callbacks of one socket run in order, and only waiting frames have one, so each callback
 * belongs to the oldest frame handed to the socket. A failed write of an eager frame ends the
 * connection (`ws` closes on a socket error), which fails the queue from the close.
 */
export class SendQueue<S extends QueueSocket = QueueSocket> {
  readonly #socket: S;
  readonly #maxBufferedBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #stallTimeoutMs: number;
  readonly #onstall: SendQueueOptions<S>['onstall'];
  readonly #onwritten: SendQueueOptions<S>['onwritten'];
  /** Frames handed to the socket and awaiting their write callback, from `#head` on. */
  #pending: Array<PendingSend | undefined> = [];
  #head = 0;
  /** Frames not yet handed to the socket; made on first use (most connections never need it). */
  #waiting: SendScheduler<PendingSend> | undefined;
  #failure: Error | undefined;
  /** Runs while frames await callbacks (the socket is backed up); see `#checkStall`. */
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Write callbacks so far, and their count when the stall timer was armed. */
  #written = 0;
  #writtenAtCheck = 0;

  constructor(socket: S, options: SendQueueOptions<S>) {
    this.#socket = socket;
    this.#maxBufferedBytes = options.maxBufferedBytes;
    this.#maxQueuedBytes = options.maxQueuedBytes;
    this.#stallTimeoutMs = options.sendStallTimeoutMs;
    this.#onstall = options.onstall;
    this.#onwritten = options.onwritten;
  }

  /** Sends not yet written out (of those that had to wait). */
  get size(): number {
    return this.#pending.length - this.#head + (this.#waiting?.size ?? 0);
  }

  /** UTF-8 bytes of the frames waiting for the socket to drain. */
  get queuedBytes(): number {
    return this.#waiting?.queuedBytes ?? 0;
  }

  /**
   * Sends `data`, the encoding of `message`; `message` and `options` give its class and ordering key
   * should it have to wait (without them it waits as a `normal` frame of no request).
   */
  send(
    data: string,
    message?: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const socket = this.#socket;
    // `ws` drops a frame sent while closing, telling only its callback: an eager frame has none.
    if (socket.readyState !== OPEN) {
      return Promise.reject(new ConnectionClosedError('WebSocket is closing; message not sent'));
    }
    const buffered = socket.bufferedAmount;
    if (this.size === 0) {
      // A string's length bounds its UTF-8 bytes from below: a frame of multi-byte text may leave the
      // socket up to three times as full before one waits, still far below `maxBufferedBytes`.
      if (buffered + data.length <= EAGER_BUFFER_BYTES) {
        socket.send(data);
        return SENT;
      }
      // Nothing awaits a callback, so the socket holds only eager frames (a bounded few): write it, or
      // no callback would ever come to write it later.
      return this.#write(data);
    }
    if ((this.#waiting === undefined || this.#waiting.size === 0) && buffered < this.#maxBufferedBytes) {
      return this.#write(data);
    }
    return this.#enqueue(data, message, options);
  }

  /** Rejects every unsent message and refuses new ones. */
  fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stopStallTimer();
    const pending = this.#pending;
    const head = this.#head;
    this.#pending = [];
    this.#head = 0;
    for (let i = head; i < pending.length; i++) pending[i]?.reject(error);
    const waiting = this.#waiting?.clear();
    if (waiting !== undefined) for (const entry of waiting) entry.reject(error);
  }

  /** Hands `data` to the socket now; settles at its write callback. */
  #write(data: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ data: undefined, resolve, reject });
      this.#startStallTimer();
      this.#socket.send(data, this.#onWritten);
    });
  }

  /** Holds `data` until the socket drains, or gives the peer up when the queue is full. */
  #enqueue(
    data: string,
    message: JSONRPCMessage | readonly JSONRPCMessage[] | undefined,
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    const bytes = Buffer.byteLength(data);
    this.#waiting ??= new SendScheduler({
      maxQueuedBytes: this.#maxQueuedBytes,
      // Bounded by bytes only, as before the scheduler: 10 000 small progress frames may wait.
      maxQueuedMessages: Number.POSITIVE_INFINITY,
    });
    const waiting = this.#waiting;
    let refused: number | undefined;
    const sent = new Promise<void>((resolve, reject) => {
      refused = waiting.pushMessage({ data, resolve, reject }, bytes, message, options)?.wouldHold;
    });
    if (refused === undefined) return sent;
    const error = new SendBufferFullError(this.#maxQueuedBytes, refused);
    this.#stall(error);
    return Promise.reject(error);
  }

  /** Writes waiting frames while the socket has room; at least one when nothing else awaits a callback. */
  #pump(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    const socket = this.#socket;
    const max = this.#maxBufferedBytes;
    while (
      waiting.size > 0 &&
      (this.#head === this.#pending.length || socket.bufferedAmount < max) &&
      this.#failure === undefined
    ) {
      const entry = waiting.shift() as PendingSend;
      const data = entry.data as string;
      entry.data = undefined;
      this.#pending.push(entry);
      socket.send(data, this.#onWritten);
    }
  }

  #stall(error: SendBufferFullError | SendStalledError): void {
    if (this.#failure !== undefined) return;
    this.fail(error);
    this.#onstall(this.#socket, error);
  }

  #startStallTimer(): void {
    const timeoutMs = this.#stallTimeoutMs;
    if (this.#stallTimer !== undefined || timeoutMs <= 0) return;
    this.#writtenAtCheck = this.#written;
    this.#stallTimer = setTimeout(this.#checkStall, timeoutMs);
    // Browsers' numeric timer ids have no unref; a Node timer must not hold the process open.
    (this.#stallTimer as { unref?: () => void }).unref?.();
  }

  #stopStallTimer(): void {
    if (this.#stallTimer === undefined) return;
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }

  /**
   * One timer per backed-up stretch, not one per frame: it fires every `sendStallTimeoutMs` while
   * frames await callbacks, and gives the peer up when no callback came since the last time.
   */
  readonly #checkStall = (): void => {
    this.#stallTimer = undefined;
    if (this.size === 0 || this.#failure !== undefined) return;
    if (this.#written === this.#writtenAtCheck) {
      this.#stall(new SendStalledError(this.#stallTimeoutMs, this.#socket.bufferedAmount));
      return;
    }
    this.#startStallTimer();
  };

  /**
   * The write callback of every waiting frame (one function per queue). Callbacks come in write order,
   * so each belongs to the head of the waiting list.
   */
  readonly #onWritten = (error?: Error | null): void => {
    if (error != null) {
      // A failed write means the socket is broken; later callbacks may arrive in any order.
      this.fail(new ConnectionClosedError('WebSocket closed before the message was sent', { cause: error }));
      return;
    }
    const entry = this.#pending[this.#head];
    if (entry === undefined) return;
    this.#written++;
    this.#onwritten?.(this.#socket);
    this.#pending[this.#head] = undefined;
    this.#head++;
    this.#pump();
    if (this.#head === this.#pending.length) {
      // The stall timer is left to lapse (it finds nothing waiting): clearing and re-arming it per
      // frame would cost two timer operations on every large answer.
      this.#pending = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#pending.length) {
      this.#pending = this.#pending.slice(this.#head);
      this.#head = 0;
    }
    entry.resolve();
  };
}
