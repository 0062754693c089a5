import type { ServerResponse } from 'node:http';
import { SSE_HEADERS } from '../server/sse-reply.js';
import { STREAM_HIGH_WATER_BYTES, type SseSink, type SseSinkEvents } from '../server/sse-sink.js';

/**
 * A session's event stream written straight to the GET's `ServerResponse`: no `ReadableStream`, no
 * reader loop, no encoding to bytes in JavaScript. Frames written before `open()` (the `endpoint`
 * event, anything sent while `onsession` runs) leave with the head in one write.
 */
export class NodeSseSink implements SseSink {
  readonly #res: ServerResponse;
  #events: SseSinkEvents | undefined;
  /** Frames waiting for the head; undefined once it went out. */
  #pending: string | undefined = '';
  #ending = false;
  #aborted = false;
  #congested = false;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  bind(events: SseSinkEvents): void {
    this.#events = events;
  }

  write(frame: string): void {
    if (this.#pending !== undefined) {
      this.#pending += frame;
      return;
    }
    const res = this.#res;
    if (res.destroyed || res.writableEnded) throw new Error('The event stream response is closed');
    if (!res.write(frame)) this.#congested = true;
  }

  get congested(): boolean {
    return this.#pending === undefined ? this.#congested : this.#pending.length >= STREAM_HIGH_WATER_BYTES;
  }

  get bufferedBytes(): number {
    // A string frame is counted in UTF-16 units until it is written: close enough for a limit.
    // `writableLength` of a response includes what its socket still holds.
    return this.#pending === undefined ? this.#res.writableLength : this.#pending.length;
  }

  end(): void {
    if (this.#pending !== undefined) this.#ending = true;
    else if (!this.#res.writableEnded) this.#res.end();
  }

  abort(): void {
    this.#aborted = true;
    if (this.#pending !== undefined) this.#pending = '';
    else this.#res.destroy();
  }

  /** Sends the head with every frame so far; from here on frames go straight to the socket. */
  open(): void {
    const pending = this.#pending ?? '';
    const waited = this.congested;
    this.#pending = undefined;
    const res = this.#res;
    if (this.#aborted || res.destroyed) return;
    res.writeHead(200, SSE_HEADERS);
    if (this.#ending) {
      res.end(pending);
      return;
    }
    res.on('drain', () => {
      this.#congested = false;
      this.#events?.drained();
    });
    if (!res.write(pending)) this.#congested = true;
    else if (waited) this.#events?.drained();
  }
}
