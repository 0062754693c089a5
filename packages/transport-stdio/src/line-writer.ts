import type { Writable } from 'node:stream';
import { ConnectionClosedError } from '@x/protocol';

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

/** What a write under the bound returns: nothing to wait for. */
const WRITTEN: Promise<void> = Promise.resolve();

/**
 * Writes lines to a stream with bounded buffering: a write resolves at once while the queue is under
 * the bound, otherwise when the stream drains. Lines written in one turn (the answers to a chunk of
 * requests, a burst of calls) leave in one system call when the turn ends: the first goes into the
 * corked stream, the rest are joined and follow as one chunk, which spares the stream's per-chunk
 * bookkeeping (measured on a pipe: 0.5-0.7 µs per line against 1.1-1.4 µs with one chunk per line).
 * Order is the order of `write()` calls. Blocked writers share one promise (no per-message closure on
 * the hot path). Whoever ends the stream calls `writePending()` (or `flush()`) first.
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #maxBufferedBytes: number;
  #drained: Promise<void> | undefined;
  #resolveDrained: (() => void) | undefined;
  #rejectDrained: ((error: Error) => void) | undefined;
  #failure: Error | undefined;
  /** Lines of the current turn after its first, not yet handed to the stream. */
  #pending = '';
  #corked = false;

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
    if (!this.#corked) {
      this.#corked = true;
      stream.cork();
      process.nextTick(this.#endTurn);
      stream.write(line);
    } else {
      this.#pending += line;
    }
    // A turn that writes past the stream's high-water mark hands its lines over at once: the joined
    // string stays small, and the stream, now over its mark, is bound to emit 'drain' for any waiter.
    if (this.#pending.length >= stream.writableHighWaterMark) this.writePending();
    if (stream.writableLength + this.#pending.length <= this.#maxBufferedBytes) return WRITTEN;
    return this.#waitForDrain();
  }

  /** Hands the lines of the current turn to the stream now (before the stream is ended, say). */
  writePending(): void {
    const pending = this.#pending;
    if (pending === '') return;
    this.#pending = '';
    if (this.#failure === undefined && this.#stream.writable) this.#stream.write(pending);
  }

  /** Resolves when every byte written so far has been handed to the OS (or the stream failed). */
  flush(): Promise<void> {
    this.writePending();
    const stream = this.#stream;
    if (stream.writableLength === 0 || !stream.writable) return Promise.resolve();
    // Write callbacks run in order, so the callback of an empty write runs after every earlier write.
    return new Promise((resolve) => stream.write('', () => resolve()));
  }

  /** Stops accepting lines; pending and future writes reject with `error`. */
  fail(error: Error): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#pending = '';
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
    this.writePending();
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
