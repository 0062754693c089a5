import type { SseWriter } from './sse-writer.js';

/** The body of a reply the handler built: a whole text, or an SSE stream. */
export type DeferredBody = { readonly text: string } | { readonly sse: SseWriter };

/**
 * A response the handler built, held as plain data until it leaves the handler: the `node:http` entry
 * writes it straight to the socket, and the Web-standard entry turns it into a real `Response` (see
 * {@link materialize}). Nothing here touches the global `Response`, `Headers` or `Request`: the first use
 * of any of them makes Node load its bundled fetch implementation, about 7 MiB of RSS and 2 MiB of heap
 * that a `node:http` server otherwise never needs. Internal code passes a reply where the type says
 * `Response`; only `status` is read from it directly, everything else goes through the functions below.
 */
export class Reply {
  readonly status: number;
  /** The headers (lower-case names). */
  readonly headerRecord: Record<string, string>;
  readonly body: DeferredBody | undefined;

  constructor(status: number, headerRecord: Record<string, string>, body?: DeferredBody) {
    this.status = status;
    this.headerRecord = headerRecord;
    this.body = body;
  }
}

/** A reply with `body`, typed as the `Response` the handler's signatures speak of. */
export function deferredResponse(
  body: DeferredBody | undefined,
  init: { status: number; headers: Record<string, string> },
): Response {
  return new Reply(init.status, init.headers, body) as unknown as Response;
}

/** Whether `value` is a reply the handler built (an error, a 202, a JSON or SSE answer). */
export function isReply(value: unknown): value is Response {
  return value instanceof Reply;
}

/** The reply behind a response the handler built; undefined for a real `Response` (a user hook's). */
export function replyOf(response: Response): Reply | undefined {
  return isReply(response) ? (response as unknown as Reply) : undefined;
}

/** The response as any `fetch`-style runtime expects it: a reply becomes a real `Response`. */
export function materialize(response: Response): Response {
  const reply = replyOf(response);
  if (reply === undefined) return response;
  const { body } = reply;
  const payload = body === undefined ? null : 'text' in body ? body.text : body.sse.stream;
  return new Response(payload, { status: reply.status, headers: reply.headerRecord });
}
