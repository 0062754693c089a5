// Imported, not the global: Node defines `process` on globalThis as a getter (a call per use).
import { nextTick } from 'node:process';
import type { Writable } from 'node:stream';
import {
  ConnectionClosedError,
  type JSONRPCMessage,
  SENT,
  type TransportSendOptions,
} from '@x/protocol/core';
import {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
  SendScheduler,
} from '@x/protocol/transport';
import { PeerNotReadingError } from './errors.js';

// Shared with the WebSocket and gRPC transports: the same limit has the same default everywhere (issue
// #36). `maxBufferedBytes` was 4 MiB here before; the send queue behind it is unchanged.
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_SEND_STALL_TIMEOUT_MS,
} from '@x/protocol/transport';

/** Bounds of a {@link LineWriter}, and what it calls when the peer stopped reading. */
export interface LineWriterOptions {
  /**
   * Bytes queued before `write()` waits for the stream to drain. Default 8 MiB.
   *
   * @default {@link DEFAULT_MAX_BUFFERED_BYTES}
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Bytes that may wait beyond `maxBufferedBytes`; past them the peer is given up. Default 32 MiB.
   *
   * @default {@link DEFAULT_MAX_QUEUED_BYTES}
   */
  maxQueuedBytes?: number | undefined;
  /**
   * How long writes may wait with no line leaving; then the peer is given up. 0: never. Default 30 s.
   *
   * @default {@link DEFAULT_SEND_STALL_TIMEOUT_MS}
   */
  sendStallTimeoutMs?: number | undefined;
  /**
   * The peer is not reading: the writer has failed (pending and later writes reject with `error`); the
   * owner reports it and closes. Called at most once.
   */
  onstall?: ((error: PeerNotReadingError) => void) | undefined;
}

/**
 * Writes lines to a stream with bounded buffering: a write resolves at once while the stream's queue is
 * under `maxBufferedBytes`, otherwise when the stream drains. While the stream is under the mark every
 * line goes straight into its queue, in `write()` order. Once it is over the mark, further lines wait
 * in a `SendScheduler` and go into the stream on 'drain' urgent first (issue #42): a `ping` or its
 * answer overtakes queued results and progress, but never a line of its own request (see
 * `docs/message-ordering.md`). Blocked writers share one promise (no per-message closure on the hot
 * path). Memory stays bounded for a peer that stops reading: past `maxQueuedBytes` waiting in the
 * scheduler, or with writes waiting and no line leaving for `sendStallTimeoutMs`, the writer fails with
 * `PeerNotReadingError` and calls `onstall` (issue #35). Only lines written while the stream is backed
 * up carry a write callback (the stall check's sign of progress), so the everyday path schedules
 * nothing, and a line's class and key are read only when it has to wait.
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #maxBufferedBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #stallTimeoutMs: number;
  readonly #onstall: ((error: PeerNotReadingError) => void) | undefined;
  /** Runs while writers wait for a drain; see `#checkStall`. */
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Write callbacks of backed-up lines so far, and their count when the stall timer was armed. */
  #flushed = 0;
  #flushedAtCheck = 0;
  #drained: Promise<void> | undefined;
  #resolveDrained: (() => void) | undefined;
  #rejectDrained: ((error: Error) => void) | undefined;
  #failure: Error | undefined;
  /** The stream is corked until a `process.nextTick` uncorks it (see `write`). */
  #corked = false;
  /** A line was written in this turn (a microtask ends it). */
  #turnStarted = false;
  /** Lines that found the stream over `maxBufferedBytes`, handed to it on 'drain', urgent first. */
  readonly #waiting: SendScheduler<string>;

  constructor(stream: Writable, options: LineWriterOptions = {}) {
    this.#stream = stream;
    // Above the stream's high-water mark `write()` returns false, which guarantees a later 'drain'.
    this.#maxBufferedBytes = Math.max(
      options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      stream.writableHighWaterMark,
    );
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#stallTimeoutMs = options.sendStallTimeoutMs ?? DEFAULT_SEND_STALL_TIMEOUT_MS;
    this.#onstall = options.onstall;
    this.#waiting = new SendScheduler({
      maxQueuedBytes: this.#maxQueuedBytes,
      // Bounded by bytes only, as before the scheduler: 10 000 small progress lines may wait.
      maxQueuedMessages: Number.POSITIVE_INFINITY,
    });
    stream.on('drain', this.#onDrain);
  }

  /**
   * Writes `line`, the encoding of `message`; `message` and `options` give its class and ordering key
   * should it have to wait (without them it waits as a `normal` line of no request).
   */
  write(
    line: string,
    message?: JSONRPCMessage | readonly JSONRPCMessage[],
    options?: TransportSendOptions,
  ): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const stream = this.#stream;
    if (!stream.writable) return Promise.reject(new ConnectionClosedError('Output stream is closed'));
    if (this.#drained !== undefined) return this.#hold(line, message, options);
    // The first line of a turn leaves at once, so the peer can start on it while this process goes
    // on; the rest of the turn (the answers to a chunk of requests, a burst of calls) is corked and
    // leaves in one write, instead of one system call each, at a `process.nextTick`: after the
    // promise callbacks of the turn, which write most of those lines. Only a turn that corks pays for
    // the tick (some 25 calls into Node's task queue and async hooks); a turn of one line (sequential
    // calls) ends with a plain microtask.
    if (!this.#corked) {
      if (this.#turnStarted) {
        this.#corked = true;
        stream.cork();
        nextTick(this.#uncork);
      } else {
        this.#turnStarted = true;
        void SENT.then(this.#endTurn);
      }
    }
    // A line that backs the stream up gets the shared write callback: its call is the stall check's
    // sign that the peer still reads.
    if (stream.writableLength + line.length > this.#maxBufferedBytes) {
      stream.write(line, this.#onFlushed);
    } else {
      stream.write(line);
    }
    const queued = stream.writableLength;
    if (queued <= this.#maxBufferedBytes) return SENT;
    if (queued - this.#maxBufferedBytes > this.#maxQueuedBytes) {
      const error = new PeerNotReadingError({
        option: 'maxQueuedBytes',
        limit: this.#maxQueuedBytes,
        queuedBytes: queued,
      });
      this.#stall(error);
      return Promise.reject(error);
    }
    return this.#waitForDrain();
  }

  /** The stream is over the mark: `line` waits in the scheduler for a 'drain'. */
  #hold(
    line: string,
    message: JSONRPCMessage | readonly JSONRPCMessage[] | undefined,
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    const refused = this.#waiting.pushMessage(line, line.length, message, options);
    if (refused !== undefined) {
      const error = new PeerNotReadingError({
        option: 'maxQueuedBytes',
        limit: this.#maxQueuedBytes,
        queuedBytes: this.#stream.writableLength + refused.wouldHold,
      });
      this.#stall(error);
      return Promise.reject(error);
    }
    return this.#waitForDrain();
  }

  /** Resolves when every byte written so far has been handed to the OS (or the stream failed). */
  flush(): Promise<void> {
    const stream = this.#stream;
    // A failed writer (a peer that stopped reading) will never see its bytes flushed.
    if (!stream.writable || this.#failure !== undefined) return Promise.resolve();
    if (this.#waiting.size > 0) {
      return this.#waitForDrain().then(
        () => this.flush(),
        () => undefined,
      );
    }
    if (stream.writableLength === 0) return Promise.resolve();
    // Write callbacks run in order, so the callback of an empty write runs after every earlier write.
    return new Promise((resolve) => stream.write('', () => resolve()));
  }

  /** Stops accepting lines; pending and future writes reject with `error`. */
  fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stopStallTimer();
    this.#stream.off('drain', this.#onDrain);
    this.#waiting.clear();
    this.#rejectDrained?.(error);
    this.#clearWaiter();
  }

  #stall(error: PeerNotReadingError): void {
    if (this.#failure !== undefined) return;
    this.fail(error);
    this.#onstall?.(error);
  }

  #stopStallTimer(): void {
    if (this.#stallTimer === undefined) return;
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }

  /** Fires every `sendStallTimeoutMs` while writers wait; gives up when no line left since the last time. */
  readonly #checkStall = (): void => {
    this.#stallTimer = undefined;
    if (this.#drained === undefined || this.#failure !== undefined) return;
    if (this.#flushed === this.#flushedAtCheck) {
      this.#stall(
        new PeerNotReadingError({
          option: 'sendStallTimeoutMs',
          limit: this.#stallTimeoutMs,
          queuedBytes: this.#stream.writableLength + this.#waiting.queuedBytes,
        }),
      );
      return;
    }
    this.#armStallTimer();
  };

  #armStallTimer(): void {
    if (this.#stallTimeoutMs <= 0 || this.#stallTimer !== undefined) return;
    this.#flushedAtCheck = this.#flushed;
    this.#stallTimer = setTimeout(this.#checkStall, this.#stallTimeoutMs);
    this.#stallTimer.unref();
  }

  /** The write callback of every backed-up line (one function per writer). */
  readonly #onFlushed = (): void => {
    this.#flushed++;
  };

  #waitForDrain(): Promise<void> {
    if (this.#drained === undefined) {
      // One timer per drain cycle, not per message.
      this.#armStallTimer();
      this.#drained = new Promise<void>((resolve, reject) => {
        this.#resolveDrained = resolve;
        this.#rejectDrained = reject;
      });
    }
    return this.#drained;
  }

  readonly #endTurn = (): void => {
    this.#turnStarted = false;
  };

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#stream.uncork();
  };

  /**
   * Hands waiting lines to the stream, most urgent first, until it is over the mark again (its
   * `write()` then returned false, so another 'drain' comes); writers are released once none wait.
   */
  readonly #onDrain = (): void => {
    const waiting = this.#waiting;
    if (waiting.size > 0) {
      const stream = this.#stream;
      const max = this.#maxBufferedBytes;
      // One write for the lot, not one system call per line.
      stream.cork();
      while (waiting.size > 0 && stream.writableLength <= max) {
        stream.write(waiting.shift() as string, this.#onFlushed);
      }
      stream.uncork();
      if (waiting.size > 0) return;
    }
    this.#stopStallTimer();
    this.#resolveDrained?.();
    this.#clearWaiter();
  };

  #clearWaiter(): void {
    this.#drained = undefined;
    this.#resolveDrained = undefined;
    this.#rejectDrained = undefined;
  }
}
