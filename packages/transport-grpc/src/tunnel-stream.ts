import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  parseMessage,
  type RequestId,
  type TransportSendOptions,
} from '@x/protocol/core';
import { MessageTooLargeError, SendScheduler } from '@x/protocol/transport';
import { SendBufferFullError, SendStalledError } from './errors.js';
import type { JsonRpcLine } from './proto-files.js';

/** What a {@link TunnelStream} needs of a gRPC call: both ends' duplex streams have it. */
export interface FrameChannel {
  on(event: 'data', listener: (frame: JsonRpcLine) => void): unknown;
  write(frame: JsonRpcLine, callback: (error: Error | null | undefined) => void): boolean;
}

/** The limits of one stream, resolved (every option has its default by now). */
export interface TunnelLimits {
  maxMessageBytes: number;
  maxBufferedBytes: number;
  maxQueuedBytes: number;
  sendStallTimeoutMs: number;
  maxNestingDepth: number | undefined;
}

/** Where a {@link TunnelStream} reports. */
export interface TunnelSink {
  /** A well-formed JSON-RPC message arrived, with the frame that carried it. */
  message(message: JSONRPCMessage, frame: JsonRpcLine): void;
  /** A bad frame (dropped and, for a request, answered); the stream goes on. */
  error(error: Error): void;
  /** The peer stopped reading: the stream must end with `error`. */
  fail(error: Error): void;
}

interface Pending {
  frame: JsonRpcLine;
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Up to 256 characters of an oversized line: enough for `{"jsonrpc":"2.0","id":…,"method"`. */
const HEAD_CHARS = 256;
const REQUEST_HEAD =
  /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*,\s*"method"/;

/**
 * One `Session` stream seen from either end: encodes messages into `JsonRpcLine` frames with
 * backpressure, decodes incoming frames into messages. Client and server transports each own one.
 *
 * Sending: at most `maxBufferedBytes` are handed to gRPC (written, not yet taken by HTTP/2 flow
 * control) at a time; further messages wait in a queue of at most `maxQueuedBytes`, urgent first and
 * never past a message of their own request (the kit's `SendScheduler`, issue #42). A queue
 * that overflows, or no write completing for `sendStallTimeoutMs`, means the peer stopped reading:
 * `sink.fail` ends the stream, so the requests pending on it fail at once rather than at their timeout.
 */
export class TunnelStream {
  readonly #stream: FrameChannel;
  readonly #limits: TunnelLimits;
  readonly #sink: TunnelSink;
  /** Messages not yet handed to gRPC; made on first use. */
  #queue: SendScheduler<Pending> | undefined;
  /** Handed to gRPC, write callback not yet called. */
  readonly #written = new Set<Pending>();
  #bufferedBytes = 0;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  #ended: Error | undefined;

  constructor(stream: FrameChannel, limits: TunnelLimits, sink: TunnelSink) {
    this.#stream = stream;
    this.#limits = limits;
    this.#sink = sink;
    stream.on('data', (frame: JsonRpcLine) => this.#receive(frame));
  }

  /** Sends one message as one frame; resolves once gRPC took it. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#ended !== undefined) return Promise.reject(this.#ended);
    let line: string | undefined;
    try {
      line = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if (typeof line !== 'string') return Promise.reject(new TypeError('The message is not JSON'));
    const bytes = Buffer.byteLength(line);
    if (bytes > this.#limits.maxMessageBytes) {
      return Promise.reject(new MessageTooLargeError(this.#limits.maxMessageBytes));
    }
    const related = options?.relatedRequestId;
    const frame: JsonRpcLine = {
      line,
      related_request_id: related === undefined ? '' : String(related),
      resumption_token: '',
    };
    return new Promise<void>((resolve, reject) => {
      const pending: Pending = { frame, bytes, resolve, reject };
      const queue = this.#queue;
      if ((queue === undefined || queue.size === 0) && this.#fits(bytes)) {
        this.#write(pending);
        return;
      }
      this.#queue ??= new SendScheduler({
        maxQueuedBytes: this.#limits.maxQueuedBytes,
        // Bounded by bytes only: 10 000 small progress messages may wait.
        maxQueuedMessages: Number.POSITIVE_INFINITY,
      });
      const refused = this.#queue.pushMessage(pending, bytes, message, options);
      if (refused !== undefined) {
        const error = new SendBufferFullError(this.#limits.maxQueuedBytes);
        reject(error);
        this.#sink.fail(error);
        return;
      }
      this.#pump();
    });
  }

  /** One message always goes, however large: `maxBufferedBytes` bounds what waits behind it. */
  #fits(bytes: number): boolean {
    return this.#bufferedBytes === 0 || this.#bufferedBytes + bytes <= this.#limits.maxBufferedBytes;
  }

  /** Bytes handed to gRPC or waiting for it. */
  get pendingBytes(): number {
    return (this.#queue?.queuedBytes ?? 0) + this.#bufferedBytes;
  }

  /** Stops sending: every queued message fails with `reason`; later sends too. */
  end(reason: Error): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    this.#clearStall();
    const queue = [...this.#written, ...(this.#queue?.clear() ?? [])];
    this.#written.clear();
    for (const pending of queue) pending.reject(reason);
  }

  #pump(): void {
    const queue = this.#queue;
    if (queue === undefined) return;
    while (this.#ended === undefined && queue.size > 0) {
      const next = queue.peek() as Pending;
      if (!this.#fits(next.bytes)) break;
      queue.shift();
      this.#write(next);
    }
  }

  #write(next: Pending): void {
    this.#bufferedBytes += next.bytes;
    this.#written.add(next);
    this.#armStall();
    this.#stream.write(next.frame, (error: Error | null | undefined) => {
      this.#bufferedBytes -= next.bytes;
      // After end() the promise was settled already (rejected with the reason).
      if (!this.#written.delete(next)) return;
      this.#clearStall();
      if (this.#bufferedBytes > 0) this.#armStall();
      if (error) next.reject(error);
      else next.resolve();
      this.#pump();
    });
  }

  #armStall(): void {
    const timeoutMs = this.#limits.sendStallTimeoutMs;
    if (timeoutMs <= 0 || this.#stallTimer !== undefined) return;
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      this.#sink.fail(new SendStalledError(timeoutMs));
    }, timeoutMs);
    this.#stallTimer.unref?.();
  }

  #clearStall(): void {
    if (this.#stallTimer === undefined) return;
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }

  #receive(frame: JsonRpcLine): void {
    if (this.#ended !== undefined) return;
    const line = typeof frame?.line === 'string' ? frame.line : '';
    const max = this.#limits.maxMessageBytes;
    // A UTF-8 byte is at most 3 per UTF-16 unit: only a long line needs counting.
    if (line.length * 3 > max && Buffer.byteLength(line) > max) {
      const id = requestIdOf(line);
      const error = new MessageTooLargeError(max, id === undefined ? undefined : { kind: 'request', id });
      this.#sink.error(error);
      if (id !== undefined) this.#answer(id, error);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseMessage(line, { maxNestingDepth: this.#limits.maxNestingDepth });
    } catch (error) {
      const failure =
        error instanceof McpError
          ? error
          : new McpError(ErrorCode.ParseError, `Parse error: ${String(error)}`);
      this.#sink.error(failure);
      // JSON-RPC 2.0 §5: an unreadable message is answered with id null.
      this.#answer(null, failure);
      return;
    }
    this.#sink.message(message, frame);
  }

  #answer(id: RequestId | null, error: McpError): void {
    const answer = {
      jsonrpc: '2.0' as const,
      id,
      error: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
    this.send(answer as JSONRPCMessage).catch(() => {});
  }
}

function requestIdOf(line: string): RequestId | undefined {
  const match = REQUEST_HEAD.exec(line.slice(0, HEAD_CHARS));
  if (match === null) return undefined;
  const raw = match[1]!;
  try {
    return JSON.parse(raw) as RequestId;
  } catch {
    return undefined;
  }
}
