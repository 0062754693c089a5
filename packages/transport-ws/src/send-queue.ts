import { ConnectionClosedError } from '@x/protocol';
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
 * Outgoing frames of one socket, bounded by bytes. The socket's own buffer (`bufferedAmount`) is the
 * queue: a message is refused with `SendBufferFullError` while it holds `maxBufferedBytes` or more, so a
 * slow reader costs bounded memory and nothing is dropped silently. `send()` settles when its frame has
 * been handed to the kernel, which gives awaiting senders backpressure; `fail()` rejects whatever is still
 * unsent when the connection dies.
 *
 * Write callbacks of one socket run in order, so the oldest pending send is always the one completing and
 * a single shared callback serves every message (no closure per frame).
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

  /** Sends not yet written out. */
  get size(): number {
    return this.#pending.length - this.#head;
  }

  send(data: string): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const buffered = this.#socket.bufferedAmount;
    if (buffered >= this.#maxBufferedBytes) {
      return Promise.reject(new SendBufferFullError(this.#maxBufferedBytes, buffered));
    }
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#socket.send(data, this.#onWritten);
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
