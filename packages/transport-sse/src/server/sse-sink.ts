/** What a sink tells the session it feeds. */
export interface SseSinkEvents {
  /** The client caught up: senders waiting on `congested` may go on. */
  drained: () => void;
  /** The client went away: the session is over. */
  gone: () => void;
}

/**
 * Where a session's event stream goes: a Web `ReadableStream` (the body of the GET's `Response`) or,
 * under the `node:http` adapter, the `ServerResponse` itself.
 */
export interface SseSink {
  /** Called once by the session, before anything is written. */
  bind(events: SseSinkEvents): void;
  /** Queues one encoded frame; throws when the stream can no longer be written. */
  write(frame: string): void;
  /** True while the client is behind: a sender should wait for `drained`. */
  readonly congested: boolean;
  /** Bytes written but not yet taken by the client (what `maxBufferedBytes` bounds). */
  readonly bufferedBytes: number;
  /** Ends the stream after whatever is queued (graceful close). */
  end(): void;
  /** The client is gone: drops what is queued. */
  abort(reason: Error): void;
}

/** How much encoded output may wait for a slow client before `send()` starts waiting for it to read. */
export const STREAM_HIGH_WATER_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/** The sink of the Web-standard entry: frames become the chunks of a `ReadableStream`. */
export class WebStreamSink implements SseSink {
  readonly stream: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #events: SseSinkEvents | undefined;

  constructor() {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#events?.drained(),
        cancel: () => this.#events?.gone(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER_BYTES }),
    );
  }

  bind(events: SseSinkEvents): void {
    this.#events = events;
  }

  write(frame: string): void {
    (this.#controller as ReadableStreamDefaultController<Uint8Array>).enqueue(encoder.encode(frame));
  }

  get congested(): boolean {
    return (this.#controller?.desiredSize ?? 1) <= 0;
  }

  get bufferedBytes(): number {
    // desiredSize is the high-water mark minus what is queued; null once errored (nothing queued).
    return Math.max(0, STREAM_HIGH_WATER_BYTES - (this.#controller?.desiredSize ?? STREAM_HIGH_WATER_BYTES));
  }

  end(): void {
    try {
      this.#controller?.close();
    } catch {
      // Already closed or cancelled by the runtime: nothing left to end.
    }
  }

  abort(_reason: Error): void {
    try {
      // Closed, not errored: a runtime that learnt of the disconnect from `request.signal` rather than by
      // cancelling the body (@hono/node-server) still reads it, and logs an errored body with a stack
      // trace on every client that leaves. What is queued is at most `maxBufferedBytes`; it goes with
      // the stream.
      this.#controller?.close();
    } catch {
      // Already closed or cancelled by the runtime.
    }
  }
}
