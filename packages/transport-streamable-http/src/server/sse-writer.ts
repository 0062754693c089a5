import { SSE_HEADERS } from './http-responses.js';

/** Options for {@link SseWriter}. */
export interface SseWriterOptions {
  /** Interval of `:` comment lines that keep idle proxies and clients from timing out; 0 disables. */
  keepAliveMs?: number | undefined;
  /**
   * Bytes the reader may fall behind before the writer gives up on it and closes the stream, so a
   * stalled client cannot grow server memory without bound. Default 16 MiB.
   */
  maxBufferedBytes?: number | undefined;
  /** Called once when the stream ends for any reason other than `close()`: the client went away. */
  onDisconnect?: (() => void) | undefined;
}

const encoder = new TextEncoder();
const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * One Server-Sent Events response body (WHATWG HTML §9.2). Frames are written whole, so a reader never
 * sees half an event; `data` is one line because `JSON.stringify` never emits a raw line break.
 */
export class SseWriter {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #maxBuffered: number;
  #onDisconnect: (() => void) | undefined;

  constructor(options: SseWriterOptions = {}) {
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#onDisconnect = options.onDisconnect;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#ended(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
    const keepAliveMs = options.keepAliveMs ?? 0;
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#enqueue(':\n\n'), keepAliveMs);
      // A keep-alive must never hold a process open on its own.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** A `Response` streaming this writer, with the SSE headers plus `headers`. */
  response(headers?: Record<string, string>): Response {
    return new Response(this.stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  }

  /** Writes one event; returns false when the stream is already gone. */
  event(data: string, id?: string): boolean {
    return this.#enqueue(id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`);
  }

  /**
   * The priming event of 2025-11-25 transports ("SHOULD immediately send an SSE event consisting of an
   * event ID and an empty data field"), with the `retry` the client must honour when given.
   */
  prime(id: string, retryMs?: number): boolean {
    const retry = retryMs === undefined ? '' : `retry: ${retryMs}\n`;
    return this.#enqueue(`id: ${id}\n${retry}data: \n\n`);
  }

  /** Tells the client how long to wait before reconnecting (SSE `retry` field, no event dispatched). */
  retry(ms: number): boolean {
    return this.#enqueue(`retry: ${ms}\n\n`);
  }

  /** Ends the response normally. Idempotent; does not call `onDisconnect`. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    try {
      this.#controller.close();
    } catch {
      // already errored by the runtime
    }
  }

  #enqueue(text: string): boolean {
    if (this.#closed) return false;
    const desired = this.#controller.desiredSize;
    if (desired !== null && desired < -this.#maxBuffered) {
      // The client stopped reading: drop it (and what it has not read) rather than buffer forever.
      this.#stop();
      this.#controller.error(new Error('SSE client fell too far behind'));
      this.#onDisconnect?.();
      return false;
    }
    try {
      this.#controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      this.#ended();
      return false;
    }
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
