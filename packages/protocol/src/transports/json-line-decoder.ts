import { ErrorCode, McpError } from '../errors.js';
import { type JSONRPCMessage, type ParseOptions, type RequestId, validateMessage } from '../jsonrpc.js';
import { parseMessageOrBatch } from '../jsonrpc-batch.js';
import { DEFAULT_MAX_LINE_BYTES } from './limit-defaults.js';

// The default lives with the other transport limits; re-exported here, where it was first public.
export { DEFAULT_MAX_LINE_BYTES } from './limit-defaults.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = 0xfeff;
const REPLACEMENT_CHARACTER = '\ufffd';

/**
 * A line grew past `maxLineBytes` before its newline arrived; it was dropped.
 *
 * @example
 * ```ts
 * const decoder = new JsonLineDecoder({
 *   onmessage: (message) => console.log(message),
 *   onerror: (error) => {
 *     if (error instanceof MessageTooLargeError) console.warn(`dropped a line over ${error.limit} bytes`);
 *   },
 * });
 * ```
 */
export class MessageTooLargeError extends McpError {
  override readonly name = 'MessageTooLargeError';
  readonly limit: number;
  /**
   * What the dropped message's first bytes show (`{"jsonrpc":"2.0","id":…,"method"|"result"|"error"`),
   * so the request it was, or answered, is settled now instead of waiting out a timeout: a request's id
   * is also `data.id` (answered with an error, as for any unreadable request).
   */
  readonly head: MessageHead | undefined;
  constructor(limit: number, head?: MessageHead) {
    super(
      ErrorCode.InvalidRequest,
      `Message exceeds the ${limit}-byte line limit (maxMessageBytes) and was dropped`,
      head?.kind === 'request' ? { limit, id: head.id } : { limit },
    );
    this.limit = limit;
    this.head = head;
  }
}

/**
 * The id of a dropped message and whether it was a request (`method` follows the id) or a response
 * (`result` or `error` follows it).
 *
 * @example
 * ```ts
 * if (error instanceof MessageTooLargeError && error.head?.kind === 'response') failRequest(error.head.id);
 * ```
 */
export interface MessageHead {
  readonly id: RequestId;
  readonly kind: 'request' | 'response';
}

/** How much of an oversized line is kept to look for its id. */
const HEAD_BYTES = 256;
// The id as the first member, or the second after "jsonrpc" (how SDKs serialize a message), and the
// member after it.
const LEADING_ID =
  /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*,\s*"(method|result|error)"/;

/** The id and kind at the start of a message's text, if its first bytes show them plainly. */
function headOf(bytes: Uint8Array): MessageHead | undefined {
  const match = LEADING_ID.exec(new TextDecoder().decode(bytes));
  if (match === null) return undefined;
  let id: unknown;
  try {
    id = JSON.parse(match[1] ?? '');
  } catch {
    return undefined;
  }
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  return { id, kind: match[2] === 'method' ? 'request' : 'response' };
}

/**
 * Where a `JsonLineDecoder` delivers decoded messages and per-line failures.
 *
 * @example
 * ```ts
 * const sink: JsonLineDecoderSink = {
 *   onmessage: (message) => transport.onmessage?.(message),
 *   onerror: (error) => transport.onerror?.(error),
 * };
 * const decoder = new JsonLineDecoder(sink);
 * ```
 */
export interface JsonLineDecoderSink {
  onmessage(message: JSONRPCMessage): void;
  /**
   * A line that could not be used: `McpError(ParseError)` for invalid JSON, `McpError(InvalidRequest)` for
   * JSON that is not JSON-RPC, `MessageTooLargeError` for an oversized line. Decoding goes on after it.
   */
  onerror(error: McpError): void;
  /**
   * A line holding a JSON array (a JSON-RPC batch), undecoded: check it with `readBatch`. Without this
   * callback an array is reported to `onerror` as an invalid request.
   */
  onbatch?(values: unknown[]): void;
}

/**
 * Limits for a `JsonLineDecoder`.
 *
 * @example
 * ```ts
 * const decoder = new JsonLineDecoder(sink, { maxLineBytes: 1024 * 1024 }); // 1 MiB per message
 * ```
 */
export interface JsonLineDecoderOptions {
  /** Bytes one line may hold before it is dropped. Default 8 MiB (`DEFAULT_MAX_LINE_BYTES`). */
  maxLineBytes?: number | undefined;
  /**
   * How deeply a line's arrays and objects may nest; a deeper line is reported as `McpError(ParseError)`
   * before it is parsed. Default 128 (`DEFAULT_MAX_NESTING_DEPTH`).
   */
  maxNestingDepth?: number | undefined;
}

const encoder = new TextEncoder();

/**
 * Splits a byte stream into newline-delimited JSON-RPC messages (the stdio framing, reusable by any
 * byte-stream transport). Partial lines are buffered, several messages per chunk are fine, `\r\n` is
 * accepted, blank lines are ignored. Memory is bounded: an oversized line is reported once and skipped
 * up to its newline without being buffered.
 *
 * Lines must be UTF-8 (RFC 8259 §8.1): a line with invalid UTF-8 is reported as a parse error rather
 * than decoded with replacement characters, so corrupted bytes never reach a handler as altered text.
 * String chunks may split a surrogate pair; the halves are joined before encoding.
 *
 * A sink that throws does not lose data: the rest of the chunk is still decoded and the first exception
 * is rethrown from `push()` afterwards. Calling `reset()` from a sink callback (e.g. when the transport
 * closes) drops the rest of the chunk being decoded too.
 *
 * @example
 * ```ts
 * const decoder = new JsonLineDecoder({ onmessage: handle, onerror: report });
 * stream.on('data', (chunk) => decoder.push(chunk));
 * ```
 */
export class JsonLineDecoder {
  readonly #sink: JsonLineDecoderSink;
  readonly #maxLineBytes: number;
  readonly #parseOptions: ParseOptions;
  /** Strict, for one line at a time: invalid UTF-8 throws. Byte order marks are stripped per line. */
  readonly #text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /**
   * For every complete line of a chunk at once (one call instead of one per line, which dominates
   * while the code is still cold). Lenient: text holding U+FFFD is decoded again line by line, strictly.
   */
  readonly #lines = new TextDecoder('utf-8', { ignoreBOM: true });
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #discarding = false;
  /** A high surrogate that ended the previous string chunk, waiting for its low half. */
  #heldSurrogate = '';
  /** Bumped by `reset()`, so a decode loop notices a reset made from inside a sink callback. */
  #generation = 0;
  #sinkFailure: { error: unknown } | undefined;

  constructor(sink: JsonLineDecoderSink, options: JsonLineDecoderOptions = {}) {
    this.#sink = sink;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#parseOptions = { maxNestingDepth: options.maxNestingDepth };
  }

  /** Bytes currently buffered for an unfinished line. */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      this.#decode(this.#encodeText(chunk));
    } else {
      // A lone high surrogate cannot pair with bytes; encode it as TextEncoder would (U+FFFD).
      if (this.#heldSurrogate !== '') this.#decode(this.#encodeText('', true));
      this.#decode(chunk);
    }
    const failure = this.#sinkFailure;
    if (failure !== undefined) {
      this.#sinkFailure = undefined;
      throw failure.error;
    }
  }

  /** Drops any unfinished line (e.g. at end of stream). Returns whether bytes were dropped. */
  reset(): boolean {
    const hadData = this.#pendingBytes > 0 || this.#heldSurrogate !== '';
    this.#reset();
    this.#discarding = false;
    this.#heldSurrogate = '';
    this.#generation += 1;
    return hadData;
  }

  #encodeText(chunk: string, flush = false): Uint8Array {
    let text = this.#heldSurrogate + chunk;
    this.#heldSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (!flush && last >= 0xd800 && last <= 0xdbff) {
      this.#heldSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    return encoder.encode(text);
  }

  #decode(bytes: Uint8Array): void {
    const generation = this.#generation;
    let start = 0;
    let whole = true;
    while (start < bytes.length && generation === this.#generation) {
      if (whole && this.#pendingBytes === 0 && !this.#discarding) {
        // No partial line is waiting: the complete lines left in the chunk are decoded as one text.
        // A newline byte never occurs inside a UTF-8 sequence, so splitting the text on '\n' gives the
        // same lines as splitting the bytes; a span within the limit holds no line over it.
        whole = false;
        const last = bytes.lastIndexOf(NEWLINE);
        if (last >= start && last - start <= this.#maxLineBytes && this.#emitLines(bytes, start, last)) {
          start = last + 1;
          continue;
        }
      }
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#buffer(bytes.subarray(start));
        return;
      }
      const lineStart = start;
      start = newline + 1;
      if (this.#discarding) {
        this.#discarding = false;
      } else if (this.#pendingBytes + (newline - lineStart) > this.#maxLineBytes) {
        const head = headOf(this.#head(bytes.subarray(lineStart, newline)));
        this.#reset();
        this.#report(new MessageTooLargeError(this.#maxLineBytes, head));
      } else {
        this.#emit(this.#takeLine(bytes.subarray(lineStart, newline)));
      }
    }
  }

  #buffer(part: Uint8Array): void {
    if (this.#discarding || part.length === 0) return;
    if (this.#pendingBytes + part.length > this.#maxLineBytes) {
      const head = headOf(this.#head(part));
      this.#reset();
      this.#discarding = true;
      this.#report(new MessageTooLargeError(this.#maxLineBytes, head));
      return;
    }
    // The caller may reuse its chunk buffer; keep our own copy of the partial line.
    this.#pending.push(part.slice());
    this.#pendingBytes += part.length;
  }

  /** The first `HEAD_BYTES` of the line held so far followed by `next`. */
  #head(next: Uint8Array): Uint8Array {
    const head = new Uint8Array(Math.min(HEAD_BYTES, this.#pendingBytes + next.length));
    let offset = 0;
    for (const part of [...this.#pending, next]) {
      if (offset === head.length) break;
      const take = part.subarray(0, head.length - offset);
      head.set(take, offset);
      offset += take.length;
    }
    return head;
  }

  #takeLine(tail: Uint8Array): Uint8Array {
    if (this.#pending.length === 0) return tail;
    const line = new Uint8Array(this.#pendingBytes + tail.length);
    let offset = 0;
    for (const part of this.#pending) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(tail, offset);
    this.#reset();
    return line;
  }

  #reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /**
   * Emits the lines of `bytes[start, end)` (`end` is a newline) from one decode; false, having emitted
   * nothing, when the text holds U+FFFD (invalid bytes, or a real U+FFFD) and must be decoded strictly.
   */
  #emitLines(bytes: Uint8Array, start: number, end: number): boolean {
    const text = this.#lines.decode(bytes.subarray(start, end));
    if (text.includes(REPLACEMENT_CHARACTER)) return false;
    const generation = this.#generation;
    let from = 0;
    while (generation === this.#generation) {
      const newline = text.indexOf('\n', from);
      if (newline === -1) {
        this.#emitText(text.slice(from));
        break;
      }
      this.#emitText(text.slice(from, newline));
      from = newline + 1;
    }
    return true;
  }

  #emit(line: Uint8Array): void {
    let text: string;
    try {
      text = this.#text.decode(line);
    } catch (cause) {
      this.#report(
        new McpError(ErrorCode.ParseError, 'Parse error: message is not valid UTF-8', undefined, { cause }),
      );
      return;
    }
    this.#emitText(text);
  }

  #emitText(line: string): void {
    let text = line;
    if (text.charCodeAt(text.length - 1) === CARRIAGE_RETURN) text = text.slice(0, -1);
    if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    if (text.trim().length === 0) return;
    let decoded: JSONRPCMessage | unknown[];
    try {
      decoded = parseMessageOrBatch(text, this.#parseOptions);
      // Without a batch handler an array is what it always was here: not a message.
      if (Array.isArray(decoded) && this.#sink.onbatch === undefined) decoded = validateMessage(decoded);
    } catch (error) {
      this.#report(error instanceof McpError ? error : new McpError(ErrorCode.ParseError, String(error)));
      return;
    }
    try {
      if (Array.isArray(decoded)) this.#sink.onbatch?.(decoded);
      else this.#sink.onmessage(decoded);
    } catch (error) {
      this.#sinkFailure ??= { error };
    }
  }

  #report(error: McpError): void {
    try {
      this.#sink.onerror(error);
    } catch (thrown) {
      this.#sinkFailure ??= { error: thrown };
    }
  }
}

/**
 * One message (or a 2025-03-26 batch: an array of them) as a line: `JSON.stringify` escapes every
 * newline, so the frame has exactly one.
 *
 * @example
 * ```ts
 * process.stdout.write(encodeJsonLine({ jsonrpc: '2.0', method: 'notifications/initialized' }));
 * ```
 */
export function encodeJsonLine(message: JSONRPCMessage | readonly JSONRPCMessage[]): string {
  return JSON.stringify(message) + '\n';
}
