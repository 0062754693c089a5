import { ConnectionClosedError, SENT } from '@x/protocol';
import { SendBufferFullError } from './errors.js';

/** The part of a `ws` socket the queue writes to. */
export interface QueueSocket {
  readonly bufferedAmount: number;
  send(data: string, callback: (error?: Error | null) => void): void;
}

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
 * slow reader costs bounded memory and nothing is dropped silently. `send()` settles at once while the
 * socket holds at most `EAGER_BUFFER_BYTES` (the frames of this turn, or a kernel that keeps up), with a
 * shared settled promise and a shared callback: no promise or closure per frame. Past that it settles
 * when its frame has been handed to the kernel, which gives awaiting senders backpressure; `fail()`
 * rejects whatever is still waiting when the connection dies. Write callbacks of one socket run in
 * order, so the oldest waiting send is always the next one a waiting callback completes.
 */
export class SendQueue {
  readonly #socket: QueueSocket;
  readonly #maxBufferedBytes: number;
  #pending: Array<PendingSend | undefined> = [];
  #head = 0;
  /** Frames sent eagerly and already reported written whose write callbacks are still to come. */
  #settledEarly = 0;
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
    if (this.size === 0) {
      socket.send(data, this.#onWritten);
      if (socket.bufferedAmount <= EAGER_BUFFER_BYTES) {
        this.#settledEarly++;
        return SENT;
      }
      // The socket holds more than a turn's worth: this frame waits like any other.
      return new Promise<void>((resolve, reject) => {
        this.#pending.push({ resolve, reject });
      });
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
   * The write callback of every frame (one function per queue). Callbacks come in write order: first
   * those of frames already reported written (sent eagerly, counted in `#settledEarly`), then one per
   * waiting frame, oldest first, so a callback with nothing settled early left belongs to the head.
   */
  readonly #onWritten = (error?: Error | null): void => {
    if (error == null && this.#settledEarly > 0) {
      this.#settledEarly--;
      return;
    }
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
