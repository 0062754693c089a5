import { DEFAULT_MAX_MESSAGE_BYTES, PayloadTooLargeError } from '@x/protocol/http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { HttpReply } from './requester.js';
import { Utf8Decoder } from './utf8-decoder.js';

/** Callbacks of {@link readSse}. */
export interface SseHandlers {
  onEvent(event: EventSourceMessage): void;
  /** The server's `retry` field: how long to wait before reconnecting (the client MUST respect it). */
  onRetry?(ms: number): void;
  /** Any bytes arrived (a silence detector's touch); only streamed bodies report it. */
  onChunk?(): void;
  /** A comment line arrived (a keep-alive: ignored as an event, WHATWG HTML §9.2.6). */
  onComment?(): void;
}

/**
 * Reads an SSE body to its end (WHATWG HTML §9.2.6), using eventsource-parser. Comments (keep-alives)
 * are ignored, as the spec requires. Resolves when the stream ends and its events are delivered; rejects
 * when it breaks. Chunks are pushed by the reply (no async iterator per chunk).
 *
 * Events are handed over a microtask after their chunk arrived and a microtask apart, as a stream reader
 * would: engines that dispatch notifications a microtask late (the official SDK's) must see a progress
 * notification before the response that ends its request, even when both arrived in one TCP packet; and
 * no handler runs inside the HTTP client's own callbacks.
 */
export async function readSse(
  reply: Pick<HttpReply, 'stream' | 'text' | 'header'>,
  handlers: SseHandlers,
  maxEventChars: number = DEFAULT_MAX_MESSAGE_BYTES,
): Promise<void> {
  const length = Number(reply.header('content-length') ?? Number.NaN);
  // A whole body no larger than the event limit cannot hold a larger event.
  if (length >= 0 && length <= Math.min(WHOLE_BODY_BYTES, maxEventChars)) {
    const text = await reply.text();
    const events = plainEvents(text);
    if (events !== undefined) return deliverInTurn(events, handlers);
    // Anything but plain `data:` events goes through the full parser.
    return readStream(text, handlers, maxEventChars);
  }
  return readStream(reply, handlers, maxEventChars);
}

/** A reply this short with a known length is read whole: a server's answer to one quick request. */
const WHOLE_BODY_BYTES = 1024 * 1024;

/**
 * The events of a whole SSE body made only of `[event: message\n]data: <one line>\n\n` blocks (what
 * servers write for an answer without resumability), or undefined for anything else: ids, retry,
 * comments, CR line ends, several or empty data lines. For such a body this is exactly what the WHATWG parsing
 * rules give; the rest is left to eventsource-parser.
 */
function plainEvents(text: string): EventSourceMessage[] | undefined {
  if (text.length === 0 || text.includes('\r')) return undefined;
  const events: EventSourceMessage[] = [];
  let at = 0;
  while (at < text.length) {
    let event: string | undefined;
    if (text.startsWith('event: message\n', at)) {
      event = 'message';
      at += 15;
    }
    if (!text.startsWith('data: ', at)) return undefined;
    const end = text.indexOf('\n', at + 6);
    if (end === -1 || end === at + 6 || text.charCodeAt(end + 1) !== 10) return undefined;
    events.push({ id: undefined, event, data: text.slice(at + 6, end) });
    at = end + 2;
  }
  return events;
}

/** Hands whole-body events over as the stream reader would: a microtask apart. */
async function deliverInTurn(events: EventSourceMessage[], handlers: SseHandlers): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    if (i > 0) await Promise.resolve();
    handlers.onEvent(events[i] as EventSourceMessage);
  }
}

/** Parses an SSE body, streamed from `source` or already read whole, and delivers its events. */
async function readStream(
  source: Pick<HttpReply, 'stream'> | string,
  handlers: SseHandlers,
  maxEventChars: number,
): Promise<void> {
  const parsed: EventSourceMessage[] = [];
  let delivering: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const parser = createParser({
    onEvent: (event) => parsed.push(event),
    onRetry: handlers.onRetry,
    onComment: handlers.onComment,
    // A server that never ends an event (or sends a huge one) cannot grow memory past this.
    maxBufferSize: maxEventChars,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') throw new PayloadTooLargeError(maxEventChars);
    },
  });
  const deliver = async (): Promise<void> => {
    try {
      // Events parsed while this runs are appended to `parsed` and delivered by this same loop.
      for (let i = 0; i < parsed.length; i++) {
        if (i > 0) await Promise.resolve();
        handlers.onEvent(parsed[i] as EventSourceMessage);
      }
    } catch (error) {
      failure ??= { error };
    }
    parsed.length = 0;
    delivering = undefined;
  };
  if (typeof source === 'string') {
    // A byte order mark opens the stream only (what the streaming decoder drops).
    parser.feed(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  } else {
    const decoder = new Utf8Decoder();
    const touch = handlers.onChunk;
    const onChunk = (chunk: Uint8Array): void => {
      // A handler that threw ends the stream, as it would end a for-await loop.
      if (failure !== undefined) throw failure.error;
      if (touch !== undefined) touch();
      parser.feed(decoder.decode(chunk));
      if (parsed.length > 0 && delivering === undefined) delivering = Promise.resolve().then(deliver);
    };
    try {
      await source.stream(onChunk);
    } catch (error) {
      await delivering;
      throw error;
    }
    parser.feed(decoder.end());
  }
  if (parsed.length > 0 && delivering === undefined) delivering = deliver();
  await delivering;
  if (failure !== undefined) throw failure.error;
}
