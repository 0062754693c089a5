import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { HttpReply } from './requester.js';
import { Utf8Decoder } from './utf8-decoder.js';

/** Callbacks of {@link readSse}. */
export interface SseHandlers {
  onEvent(event: EventSourceMessage): void;
  /** The server's `retry` field: how long to wait before reconnecting (the client MUST respect it). */
  onRetry?(ms: number): void;
}

/** Largest single event accepted (bytes of text); a server that never ends an event cannot grow memory. */
const MAX_EVENT_CHARS = 64 * 1024 * 1024;

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
export async function readSse(reply: Pick<HttpReply, 'stream'>, handlers: SseHandlers): Promise<void> {
  const parsed: EventSourceMessage[] = [];
  let delivering: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const parser = createParser({
    onEvent: (event) => parsed.push(event),
    onRetry: handlers.onRetry,
    maxBufferSize: MAX_EVENT_CHARS,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') throw error;
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
  const decoder = new Utf8Decoder();
  const onChunk = (chunk: Uint8Array): void => {
    // A handler that threw ends the stream, as it would end a for-await loop.
    if (failure !== undefined) throw failure.error;
    parser.feed(decoder.decode(chunk));
    if (parsed.length > 0 && delivering === undefined) delivering = Promise.resolve().then(deliver);
  };
  try {
    await reply.stream(onChunk);
  } catch (error) {
    await delivering;
    throw error;
  }
  parser.feed(decoder.end());
  if (parsed.length > 0 && delivering === undefined) delivering = deliver();
  await delivering;
  if (failure !== undefined) throw failure.error;
}
