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
  /**
   * The response's headers while they are only a record: the `Response` itself is built without them
   * (filling a `Headers` validates every name and value, ~0.6 µs a reply the node entry never reads).
   * {@link realizeHeaders} moves them into `response.headers` for whoever reads or changes those.
   */
  headers: Record<string, string> | undefined;
}

const deferred = new WeakMap<Response, Deferred>();

/**
 * A response whose body is `body`. Its `headers` are empty until {@link realizeHeaders} (or
 * {@link materialize}) runs: code that reads or changes them on a response from here calls that first.
 */
export function deferredResponse(
  body: DeferredBody,
  init: { status: number; headers: Record<string, string> },
): Response {
  const response = new Response(null, { status: init.status });
  deferred.set(response, { body, headers: init.headers });
  return response;
}

/** Gives a deferred response its headers in `response.headers`, before anyone reads or changes them. */
export function realizeHeaders(response: Response): void {
  const entry = deferred.get(response);
  if (entry?.headers === undefined) return;
  for (const [name, value] of Object.entries(entry.headers)) response.headers.set(name, value);
  entry.headers = undefined;
}

/**
 * Takes the deferred body of a response (once), with its headers as a plain record unless they were
 * realized (then they are in `response.headers`); undefined for an ordinary response.
 */
export function takeDeferred(response: Response): Deferred | undefined {
  const entry = deferred.get(response);
  if (entry !== undefined) deferred.delete(response);
  return entry;
}

/** The response as any `fetch`-style runtime expects it: a deferred body becomes a real one. */
export function materialize(response: Response): Response {
  const entry = takeDeferred(response);
  if (entry === undefined) return response;
  const { body } = entry;
  return new Response('text' in body ? body.text : body.sse.stream, {
    status: response.status,
    statusText: response.statusText,
    headers: entry.headers ?? response.headers,
  });
}
