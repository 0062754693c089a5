/** What a sink tells the session it feeds. */
export interface SseSinkEvents {
  /** The client caught up: senders waiting on `congested` may go on. */
  drained: () => void;
  /** The client went away: the session is over. */
  gone: () => void;
}

/**
 * Where a session's event stream goes (a `SessionStream`: the body of the GET's response, read as a Web
 * `ReadableStream` or, under the `node:http` adapter, written to the `ServerResponse` itself).
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
