import { createParser, type EventSourceMessage } from 'eventsource-parser';

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
 * are ignored, as the spec requires. Resolves when the stream ends; rejects when it breaks.
 */
export async function readSse(chunks: AsyncIterable<Uint8Array>, handlers: SseHandlers): Promise<void> {
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (event) => parsed.push(event),
    onRetry: handlers.onRetry,
    maxBufferSize: MAX_EVENT_CHARS,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') throw error;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    await dispatch(parsed, handlers);
  }
  parser.feed(decoder.decode());
  await dispatch(parsed, handlers);
}

/**
 * Hands over the events of one chunk with a microtask between them, as a stream reader would: engines
 * that dispatch notifications a microtask late (the official SDK's) must see a progress notification
 * before the response that ends its request, even when both arrived in one TCP packet.
 */
async function dispatch(parsed: EventSourceMessage[], handlers: SseHandlers): Promise<void> {
  for (let i = 0; i < parsed.length; i++) {
    if (i > 0) await Promise.resolve();
    handlers.onEvent(parsed[i] as EventSourceMessage);
  }
  parsed.length = 0;
}
