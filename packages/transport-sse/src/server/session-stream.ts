import type { FrameSink, FrameStream } from '@x/protocol/http';
import { STREAM_HIGH_WATER_BYTES, type SseSink, type SseSinkEvents } from './sse-sink.js';

const encoder = new TextEncoder();

/**
 * A session's event stream, the body of the GET's `LazyResponse`. Frames written before a consumer
 * takes it (the `endpoint` event, anything sent while `onsession` runs) are held and leave in one
 * write; then they go to whichever came first: `stream` (a `ReadableStream`, for Web-standard runtimes)
 * or `attach` (the `node:http` adapter's `ServerResponse`: no Web stream, no encoding in JavaScript).
 */
export class SessionStream implements SseSink, FrameStream {
  #events: SseSinkEvents | undefined;
  /** Frames waiting for a consumer. */
  #pending = '';
  #sink: FrameSink | undefined;
  #stream: ReadableStream<Uint8Array> | undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #ending = false;
  #aborted = false;
  #gone = false;
  #congested = false;

  bind(events: SseSinkEvents): void {
    this.#events = events;
  }

  write(frame: string): void {
    const sink = this.#sink;
    if (sink !== undefined) {
      if (this.#ending || this.#aborted || this.#gone) throw new Error('The event stream response is closed');
      if (!sink.write(frame)) this.#congested = true;
      return;
    }
    const controller = this.#controller;
    // Throws once the runtime closed or cancelled the stream: the session takes that as the client gone.
    if (controller !== undefined) controller.enqueue(encoder.encode(frame));
    else this.#pending += frame;
  }

  get congested(): boolean {
    if (this.#sink !== undefined) return this.#congested;
    if (this.#controller !== undefined) return (this.#controller.desiredSize ?? 1) <= 0;
    return this.#pending.length >= STREAM_HIGH_WATER_BYTES;
  }

  get bufferedBytes(): number {
    // A held frame is counted in UTF-16 units: close enough for a limit. A response's `writableLength`
    // includes what its socket still holds; a stream's desiredSize is the high-water mark minus what is
    // queued (null once errored: nothing queued).
    if (this.#sink !== undefined) return this.#sink.writableLength;
    const controller = this.#controller;
    if (controller !== undefined) {
      return Math.max(0, STREAM_HIGH_WATER_BYTES - (controller.desiredSize ?? STREAM_HIGH_WATER_BYTES));
    }
    return this.#pending.length;
  }

  end(): void {
    if (this.#ending) return;
    this.#ending = true;
    if (this.#sink !== undefined) this.#sink.end();
    else this.#closeStream();
  }

  abort(_reason: Error): void {
    this.#aborted = true;
    this.#pending = '';
    if (this.#sink !== undefined) this.#sink.destroy();
    // Closed, not errored: a runtime that learnt of the disconnect from `request.signal` rather than by
    // cancelling the body (@hono/node-server) still reads it, and logs an errored body with a stack trace
    // on every client that leaves.
    else this.#closeStream();
  }

  get closed(): boolean {
    return this.#ending || this.#aborted;
  }

  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream !== undefined) return this.#stream;
    if (this.#sink !== undefined) throw new Error('This event stream already writes to a sink');
    this.#stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          const pending = this.#pending;
          this.#pending = '';
          if (pending !== '') controller.enqueue(encoder.encode(pending));
          if (this.#ending || this.#aborted) controller.close();
        },
        pull: () => this.#events?.drained(),
        cancel: () => this.#events?.gone(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER_BYTES }),
    );
    return this.#stream;
  }

  attach(sink: FrameSink): boolean {
    if (this.#stream !== undefined || this.#sink !== undefined)
      throw new Error('This event stream is in use');
    const pending = this.#pending;
    const waited = this.congested;
    this.#pending = '';
    this.#sink = sink;
    if (this.#aborted) {
      sink.destroy();
      return false;
    }
    if (pending !== '') {
      if (!sink.write(pending)) this.#congested = true;
      else if (waited) this.#events?.drained();
    }
    if (this.#ending) sink.end();
    return pending !== '';
  }

  abandon(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#events?.gone();
  }

  drained(): void {
    this.#congested = false;
    this.#events?.drained();
  }

  #closeStream(): void {
    try {
      this.#controller?.close();
    } catch {
      // Already closed or cancelled by the runtime: nothing left to end.
    }
  }
}
