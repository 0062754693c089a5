import type { SseWriter } from './sse-writer.js';

/**
 * The body of a response the handler built, kept aside until the response leaves the handler: the
 * `node:http` adapter writes it straight to the socket, and the Web-standard entry turns it into a real
 * `Response` body (see {@link materialize}). A `Response` built with a body costs a `ReadableStream`
 * (and reading it back costs more); one with a null body is cheap.
 */
export type DeferredBody = { readonly text: string } | { readonly sse: SseWriter };

interface Deferred {
  body: DeferredBody;
  /** The headers the response was built with, while nobody has changed them (see `headersChanged`). */
  headers: Record<string, string> | undefined;
}

const deferred = new WeakMap<Response, Deferred>();

/** A response whose body is `body`; its headers stay mutable (CORS adds its own). */
export function deferredResponse(
  body: DeferredBody,
  init: { status: number; headers: Record<string, string> },
): Response {
  const response = new Response(null, init);
  deferred.set(response, { body, headers: init.headers });
  return response;
}

/** Marks a response's headers as changed after it was built: readers must use `response.headers`. */
export function headersChanged(response: Response): void {
  const entry = deferred.get(response);
  if (entry !== undefined) entry.headers = undefined;
}

/**
 * Takes the deferred body of a response (once), with its headers as a plain record when they are
 * unchanged; undefined for an ordinary response.
 */
export function takeDeferred(response: Response): Deferred | undefined {
  const entry = deferred.get(response);
  if (entry !== undefined) deferred.delete(response);
  return entry;
}

/** The response as any `fetch`-style runtime expects it: a deferred body becomes a real one. */
export function materialize(response: Response): Response {
  const body = takeDeferred(response)?.body;
  if (body === undefined) return response;
  return new Response('text' in body ? body.text : body.sse.stream, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
