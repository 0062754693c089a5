// Imported, not the global: Node defines `process` on globalThis as a getter (a call per use).
import { nextTick } from 'node:process';
import type { Writable } from 'node:stream';
import { ConnectionClosedError, SENT } from '@x/protocol/core';

/**
 * Default bound on bytes queued in memory before `send()` starts waiting for the pipe to drain.
 *
 * @example
 * ```ts
 * // Let a fast producer run further ahead of a slow server before `send()` waits.
 * const transport = new StdioClientTransport({
 *   command: 'node',
 *   args: ['server.js'],
 *   maxBufferedBytes: 4 * DEFAULT_MAX_BUFFERED_BYTES,
 * });
 * ```
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * Writes lines to a stream with bounded buffering: a write resolves at once while the stream's queue is
 * under the bound, otherwise when the stream drains. Order is the order of `write()` calls, since every
 * line goes straight into the stream's own queue. Blocked writers share one promise (no per-message
 * closure on the hot path).
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #maxBufferedBytes: number;
  #drained: Promise<void> | undefined;
  #resolveDrained: (() => void) | undefined;
  #rejectDrained: ((error: Error) => void) | undefined;
  #failure: Error | undefined;
  /** The stream is corked until a `process.nextTick` uncorks it (see `write`). */
  #corked = false;
  /** A line was written in this turn (a microtask ends it). */
  #turnStarted = false;

  constructor(stream: Writable, maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES) {
    this.#stream = stream;
    // Above the stream's high-water mark `write()` returns false, which guarantees a later 'drain'.
    this.#maxBufferedBytes = Math.max(maxBufferedBytes, stream.writableHighWaterMark);
    stream.on('drain', this.#onDrain);
  }

  write(line: string): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const stream = this.#stream;
    if (!stream.writable) return Promise.reject(new ConnectionClosedError('Output stream is closed'));
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
    stream.write(line);
    if (stream.writableLength <= this.#maxBufferedBytes) return SENT;
    return this.#waitForDrain();
  }

  /** Resolves when every byte written so far has been handed to the OS (or the stream failed). */
  flush(): Promise<void> {
    const stream = this.#stream;
    if (stream.writableLength === 0 || !stream.writable) return Promise.resolve();
    // Write callbacks run in order, so the callback of an empty write runs after every earlier write.
    return new Promise((resolve) => stream.write('', () => resolve()));
  }

  /** Stops accepting lines; pending and future writes reject with `error`. */
  fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stream.off('drain', this.#onDrain);
    this.#rejectDrained?.(error);
    this.#clearWaiter();
  }

  #waitForDrain(): Promise<void> {
    if (this.#drained === undefined) {
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

  readonly #onDrain = (): void => {
    this.#resolveDrained?.();
    this.#clearWaiter();
  };

  #clearWaiter(): void {
    this.#drained = undefined;
    this.#resolveDrained = undefined;
    this.#rejectDrained = undefined;
  }
}
