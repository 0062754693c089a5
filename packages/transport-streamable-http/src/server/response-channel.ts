import { isJSONRPCResponse, type JSONRPCMessage, type RequestId, SENT } from '@x/protocol/core';
import { type Encoded, encodeMessage, encodedText, encodingError } from './encode-message.js';
import { accepted, jsonResponse } from './http-responses.js';
import type { SseWriter } from './sse-writer.js';

/** Options for {@link ResponseChannel}. */
export interface ResponseChannelOptions {
  /** Stream id (event-store key, prefix of event ids). */
  streamId: string;
  /** Requests answered on this channel; empty for the standalone GET stream, which never finishes. */
  requestIds: readonly RequestId[];
  /** Collect the responses into one `application/json` reply instead of streaming SSE. */
  json: boolean;
  /** The POST body was a JSON array (2025-03-26 batch): a JSON reply is then an array too. */
  batch: boolean;
  /** Extra headers for the reply (e.g. `Mcp-Session-Id`). */
  headers: Record<string, string>;
  /** Messages kept while no connection is attached (standalone stream only); oldest dropped first. */
  maxQueued: number;
}

type Frame = [eventId: string | undefined, data: string];

/**
 * The logical stream that carries the answers to one POST (or the standalone GET stream of a session).
 * It outlives any one HTTP connection: when a client drops an SSE connection and resumes with
 * `Last-Event-ID` (2025-11-25 "Resumability and Redelivery"), a new connection is attached to the same
 * channel.
 */
export class ResponseChannel {
  readonly streamId: string;
  readonly json: boolean;
  /** Serializes event-store writes so events keep their order on the stream. */
  tail: Promise<void> = SENT; // shared settled promise: no promise per channel
  #options: ResponseChannelOptions;
  #pending: Set<RequestId>;
  #writer: SseWriter | undefined;
  #replayBuffer: Frame[] | undefined;
  /** Frames held while no GET stream is open (standalone only); made by the first one. */
  #queue: Frame[] | undefined;
  /** JSON mode: the encoded responses, in order. */
  #collected: string[] | undefined;
  #resolve!: (response: Response) => void;
  #response: Promise<Response> | undefined;
  #finished = false;

  constructor(options: ResponseChannelOptions) {
    this.#options = options;
    this.streamId = options.streamId;
    this.json = options.json;
    this.#pending = new Set(options.requestIds);
    if (options.json) this.#response = new Promise((resolve) => (this.#resolve = resolve));
  }

  get standalone(): boolean {
    return this.#options.requestIds.length === 0;
  }

  get finished(): boolean {
    return this.#finished;
  }

  get connected(): boolean {
    return this.#writer !== undefined && !this.#writer.closed;
  }

  get writer(): SseWriter | undefined {
    return this.#writer;
  }

  /** The reply for JSON mode; resolves once every request of the POST has its response. */
  jsonResponse(): Promise<Response> {
    if (this.#response === undefined) throw new Error('not a JSON channel');
    return this.#response;
  }

  /** Attaches a live connection; queued frames go out first, in order. */
  attach(writer: SseWriter): void {
    if (this.#writer !== undefined && this.#writer !== writer) this.#writer.close();
    this.#writer = writer;
    const queued = this.#queue;
    this.#queue = undefined;
    if (queued !== undefined) for (const [id, data] of queued) writer.event(data, id);
    if (this.#finished) writer.close();
  }

  /** Forgets a connection that went away (only if it is still the current one). */
  detach(writer: SseWriter): void {
    if (this.#writer === writer) this.#writer = undefined;
  }

  /**
   * While a resume replays stored events, live frames are held back; `endReplay` sends those the replay
   * did not already carry, so nothing is lost or duplicated.
   */
  beginReplay(): void {
    this.#replayBuffer = [];
  }

  endReplay(writer: SseWriter, replayed: ReadonlySet<string>): void {
    const held = this.#replayBuffer ?? [];
    this.#replayBuffer = undefined;
    this.#queue = undefined;
    if (this.#writer !== undefined && this.#writer !== writer) this.#writer.close();
    this.#writer = writer;
    for (const [id, data] of held) if (id === undefined || !replayed.has(id)) writer.event(data, id);
    if (this.#finished) writer.close();
  }

  /**
   * Writes one message (for a JSON channel only responses are accepted; callers route the rest). A
   * response JSON cannot encode goes out as a -32603 error for its id, and the encoding failure is
   * returned for the caller to report (see `encodeMessage`); any other unencodable message throws.
   */
  write(message: JSONRPCMessage, eventId?: string): Error | undefined {
    if (this.#finished) return undefined;
    if (this.json && !isJSONRPCResponse(message)) return undefined;
    const encoded: string | Encoded = encodeMessage(message);
    if (this.json) {
      this.#collected ??= [];
      this.#collected.push(encodedText(encoded));
    } else {
      this.#frame(eventId, encodedText(encoded));
    }
    return encodingError(encoded);
  }

  /** Gives up a replay that turned out to be for another stream: held frames go out as usual. */
  abortReplay(): void {
    const held = this.#replayBuffer ?? [];
    this.#replayBuffer = undefined;
    for (const [id, data] of held) this.#frame(id, data);
    if (this.#finished) this.#writer?.close();
  }

  #frame(eventId: string | undefined, data: string): void {
    if (this.#replayBuffer !== undefined) {
      this.#replayBuffer.push([eventId, data]);
    } else if (this.#writer?.event(data, eventId) === true) {
      return;
    } else if (this.standalone) {
      // No GET stream open: hold server-initiated messages (bounded) until one is.
      this.#queue ??= [];
      this.#queue.push([eventId, data]);
      if (this.#queue.length > this.#options.maxQueued) this.#queue.shift();
    }
  }

  /** Marks a request answered; returns true when that was the last one and the channel finished. */
  settle(id: RequestId): boolean {
    if (!this.#pending.delete(id) || this.#pending.size > 0) return false;
    this.finish();
    return true;
  }

  /** Ends the channel: the JSON reply goes out, the SSE connection (if any) ends. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.json) {
      const collected = this.#collected ?? [];
      const body = this.#options.batch ? `[${collected.join(',')}]` : collected[0];
      this.#resolve(
        body === undefined ? accepted(this.#options.headers) : jsonResponse(200, body, this.#options.headers),
      );
      return;
    }
    if (this.#replayBuffer === undefined) this.#writer?.close();
  }
}
