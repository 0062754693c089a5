import {
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
  encodeSseEvent,
  type FrameSink,
  type FrameStream,
} from '@x/protocol/http';

/** Options for {@link SseWriter}. */
export interface SseWriterOptions {
  /** Interval of `:` comment lines that keep idle proxies and clients from timing out; 0 disables. */
  keepAliveMs?: number | undefined;
  /**
   * Bytes the reader may fall behind before the writer gives up on it and closes the stream, so a
   * stalled client cannot grow server memory without bound. Default 32 MiB.
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Called once when the stream ends for any reason other than `close()`: the client went away, or
   * (with the error, which names `maxBufferedBytes`) it fell too far behind and the writer dropped it,
   * with whatever it had not read.
   */
  onDisconnect?: ((error?: Error) => void) | undefined;
}

/** Where the writer's frames go under the `node:http` adapter (its `ServerResponse` has this shape). */
export type SseSink = FrameSink;

const encoder = new TextEncoder();
/**
 * Default of `maxBufferedBytes`: 32 MiB, room for a burst of some 30 messages of 1 MiB (issue #35).
 *
 * @deprecated Use `DEFAULT_MAX_STREAM_BUFFERED_BYTES` from `@x/protocol/http` (the same value, shared with
 * the SSE transport). This alias goes in the next minor version.
 */
export const DEFAULT_MAX_BUFFERED_BYTES: number = DEFAULT_MAX_STREAM_BUFFERED_BYTES;
// What a reader may hold unread before it counts as falling behind (the stream's high-water mark).
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * One Server-Sent Events response body (WHATWG HTML §9.2). Frames are written whole, so a reader never
 * sees half an event; `data` is one line because `JSON.stringify` never emits a raw line break.
 *
 * Frames go to whichever consumer attaches first: `stream` (a `ReadableStream`, created on first use,
 * for Web-standard runtimes) or a sink (`attach`, the `node:http` adapter). Until then they are held.
 */
export class SseWriter implements FrameStream {
  #stream: ReadableStream<Uint8Array> | undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #sink: SseSink | undefined;
  #held: string[] = [];
  #heldLength = 0;
  #failure: Error | undefined;
  #closed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #maxBuffered: number;
  #onDisconnect: ((error?: Error) => void) | undefined;

  constructor(options: SseWriterOptions = {}) {
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_STREAM_BUFFERED_BYTES;
    this.#onDisconnect = options.onDisconnect;
    const keepAliveMs = options.keepAliveMs ?? 0;
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#enqueue(':\n\n'), keepAliveMs);
      // A keep-alive must never hold a process open on its own.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** The frames as a byte stream; cancelling it counts as the client going away. */
  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream !== undefined) return this.#stream;
    if (this.#sink !== undefined) throw new Error('This SSE writer already writes to a sink');
    this.#stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          for (const text of this.#takeHeld()) controller.enqueue(encoder.encode(text));
          if (this.#failure !== undefined) controller.error(this.#failure);
          else if (this.#closed) controller.close();
        },
        cancel: () => this.#ended(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_BYTES }),
    );
    return this.#stream;
  }

  /**
   * Writes the frames to `sink` from now on (held ones first, in one write), ending or destroying it
   * with the writer. Returns true when something was written. The owner of the sink calls `abandon()`
   * when the client goes away.
   */
  attach(sink: SseSink): boolean {
    if (this.#stream !== undefined || this.#sink !== undefined) throw new Error('This SSE writer is in use');
    this.#sink = sink;
    const held = this.#takeHeld();
    if (held.length > 0) sink.write(held.length === 1 ? (held[0] as string) : held.join(''));
    if (this.#failure !== undefined) sink.destroy(this.#failure);
    else if (this.#closed) sink.end();
    return held.length > 0;
  }

  /** The client went away (its connection closed under the sink): like a cancelled stream. */
  abandon(): void {
    this.#ended();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Writes one event; returns false when the stream is already gone. Throws a `TypeError` for an `id`
   * with a line break (an `EventStore` is pluggable: its ids are checked like every other field).
   */
  event(data: string, id?: string): boolean {
    return this.#enqueue(encodeSseEvent({ id, data }));
  }

  /**
   * The priming event of 2025-11-25 transports ("SHOULD immediately send an SSE event consisting of an
   * event ID and an empty data field"), with the `retry` the client must honour when given.
   */
  prime(id: string, retryMs?: number): boolean {
    return this.#enqueue(encodeSseEvent({ id, retry: retryMs, data: '' }));
  }

  /** Tells the client how long to wait before reconnecting (SSE `retry` field, no event dispatched). */
  retry(ms: number): boolean {
    return this.#enqueue(encodeSseEvent({ retry: ms }));
  }

  /** Ends the response normally. Idempotent; does not call `onDisconnect`. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    if (this.#sink !== undefined) {
      this.#sink.end();
      return;
    }
    try {
      this.#controller?.close();
    } catch {
      // already errored by the runtime
    }
  }

  #enqueue(text: string): boolean {
    if (this.#closed) return false;
    const sink = this.#sink;
    const controller = this.#controller;
    const buffered =
      sink !== undefined
        ? sink.writableLength
        : controller !== undefined
          ? HIGH_WATER_BYTES - (controller.desiredSize ?? HIGH_WATER_BYTES)
          : this.#heldLength;
    if (buffered - HIGH_WATER_BYTES > this.#maxBuffered) {
      // The client stopped reading: drop it (and what it has not read) rather than buffer forever.
      this.#fail(new Error(`SSE client fell behind by more than maxBufferedBytes (${this.#maxBuffered})`));
      return false;
    }
    if (sink !== undefined) {
      sink.write(text);
      return true;
    }
    if (controller === undefined) {
      this.#held.push(text);
      this.#heldLength += text.length;
      return true;
    }
    try {
      controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      this.#ended();
      return false;
    }
  }

  #takeHeld(): string[] {
    const held = this.#held;
    this.#held = [];
    this.#heldLength = 0;
    return held;
  }

  #fail(error: Error): void {
    this.#stop();
    this.#failure = error;
    this.#takeHeld();
    if (this.#sink !== undefined) this.#sink.destroy(error);
    else this.#controller?.error(error);
    this.#onDisconnect?.(error);
  }

  #stop(): void {
    this.#closed = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  #ended(): void {
    if (this.#closed) return;
    this.#stop();
    this.#onDisconnect?.();
  }
}
