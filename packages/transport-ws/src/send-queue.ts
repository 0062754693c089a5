import { ConnectionClosedError, SENT } from '@x/protocol/core';
import { SendBufferFullError } from './errors.js';

/** The part of a `ws` socket the queue writes to. */
export interface QueueSocket {
  readonly bufferedAmount: number;
  /** `ws`'s ready states; frames go out only while it is `OPEN` (1). */
  readonly readyState: number;
  send(data: string, callback?: (error?: Error | null) => void): void;
}

/** `WebSocket.OPEN`. */
const OPEN = 1;

interface PendingSend {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Bytes the socket may hold after a send that still settles at once: this turn's batch of frames, held
 * until the turn ends and then written together (see `NodeWireSocket`).
 */
export const EAGER_BUFFER_BYTES = 64 * 1024;

/**
 * Outgoing frames of one socket, bounded by bytes. The socket's own buffer (`bufferedAmount`) is the
 * queue: a message is refused with `SendBufferFullError` while it holds `maxBufferedBytes` or more, so a
 * slow reader costs bounded memory and nothing is dropped silently. A frame that finds nothing waiting
 * and leaves the socket holding at most `EAGER_BUFFER_BYTES` (the frames of this turn, or a kernel that
 * keeps up) settles at once with a shared settled promise and is written without a callback: a write
 * callback makes Node's stream schedule a `process.nextTick` per write (some 25 calls into its task
 * queue and async hooks), where a callback-less write schedules none. Past that bound a frame settles
 * when it has been handed to the kernel (its own write callback), which gives awaiting senders
 * backpressure; `fail()` rejects whatever is still waiting when the connection dies. Write callbacks
 * of one socket run in order, and only waiting frames have one, so each callback belongs to the oldest
 * waiting send. A failed write of an eager frame ends the connection (`ws` closes on a socket error),
 * which fails the queue from the close.
 */
export class SendQueue {
  readonly #socket: QueueSocket;
  readonly #maxBufferedBytes: number;
  #pending: Array<PendingSend | undefined> = [];
  #head = 0;
  #failure: Error | undefined;

  constructor(socket: QueueSocket, maxBufferedBytes: number) {
    this.#socket = socket;
    this.#maxBufferedBytes = maxBufferedBytes;
  }

  /** Sends not yet written out (of those that had to wait). */
  get size(): number {
    return this.#pending.length - this.#head;
  }

  send(data: string): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const socket = this.#socket;
    const buffered = socket.bufferedAmount;
    if (buffered >= this.#maxBufferedBytes) {
      return Promise.reject(new SendBufferFullError(this.#maxBufferedBytes, buffered));
    }
    // `ws` drops a frame sent while closing, telling only its callback: an eager frame has none.
    if (socket.readyState !== OPEN) {
      return Promise.reject(new ConnectionClosedError('WebSocket is closing; message not sent'));
    }
    // A string's length bounds its UTF-8 bytes from below: a frame of multi-byte text may leave the
    // socket up to three times as full before one waits, still far below `maxBufferedBytes`.
    if (this.size === 0 && buffered + data.length <= EAGER_BUFFER_BYTES) {
      socket.send(data);
      return SENT;
    }
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      socket.send(data, this.#onWritten);
    });
  }

  /** Rejects every unsent message and refuses new ones. */
  fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    const pending = this.#pending;
    const head = this.#head;
    this.#pending = [];
    this.#head = 0;
    for (let i = head; i < pending.length; i++) pending[i]?.reject(error);
  }

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
    this.#pending[this.#head] = undefined;
    this.#head++;
    if (this.#head === this.#pending.length) {
      this.#pending = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#pending.length) {
      this.#pending = this.#pending.slice(this.#head);
      this.#head = 0;
    }
    entry.resolve();
  };
}
