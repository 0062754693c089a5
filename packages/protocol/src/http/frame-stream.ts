/**
 * Where a streamed response body's text goes on the `node:http` fast path: the `ServerResponse` itself
 * (which has this shape), or a collector. `write` returns false when the client is behind.
 *
 * @example
 * ```ts
 * const sink: FrameSink = { write: (chunk) => res.write(chunk), end: () => res.end(),
 *   destroy: (error) => res.destroy(error), get writableLength() { return res.writableLength; } };
 * ```
 */
export interface FrameSink {
  write(chunk: string): boolean;
  end(): void;
  destroy(error?: Error): void;
  /** Bytes written but not yet handed to the network. */
  readonly writableLength: number;
}

/**
 * A response body written as text frames over time (an SSE stream), readable two ways: as the platform
 * `ReadableStream` a Web runtime reads (`stream`), or straight into a {@link FrameSink} (`attach`), which
 * is how `toNodeHandler` of `@x/protocol/node` writes it to the socket without a Web stream. Whichever
 * comes first wins; frames written before either are held.
 *
 * @example
 * ```ts
 * return new LazyResponse(200, { 'content-type': 'text/event-stream' }, frames);
 * ```
 */
export interface FrameStream {
  /** True once every frame is in (the stream will end, or failed): it can go out as one whole body. */
  readonly closed: boolean;
  /** The frames as bytes; cancelling it counts as the client going away. */
  readonly stream: ReadableStream<Uint8Array>;
  /**
   * Writes the held frames (in one write) and every later one to `sink`, ending or destroying it with the
   * stream. Returns true when something was written.
   */
  attach(sink: FrameSink): boolean;
  /** The client went away before the stream ended (its connection closed under the sink). */
  abandon(): void;
  /** The sink took what was queued after a `write` returned false (called only when present). */
  drained?(): void;
}
