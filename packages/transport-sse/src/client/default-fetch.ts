import { type FetchLike, isNodeRuntime } from '@x/protocol/http';

/** One POST of a message. */
export interface PostInit {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** Sees the status and headers of every answer, 2xx included (`onResponse`); body `null`. */
  onHead?: ((head: Response) => void) | undefined;
}

/**
 * Sends one POST and reads its answer to the end (so the connection can be reused): undefined when the
 * server took the message (2xx), else the refusal as a `Response`. The answer to a message the server
 * took is "Accepted" and nothing else, so the common case builds no `Response` at all.
 */
export type PostFn = (url: URL, init: PostInit) => Promise<Response | undefined>;

/**
 * The answer to the GET that opens the event stream, whatever made the request: the body comes as
 * text, chunk by chunk, with no `ReadableStream` in between when undici made it.
 */
export interface OpenedStream {
  readonly status: number;
  readonly contentType: string | null;
  readonly hasBody: boolean;
  /** The response headers. */
  headers(): Headers;
  /** Hands over the body as text (multi-byte characters kept whole); settles when it ends or breaks. */
  read(onText: (text: string) => void): Promise<void>;
  /** Drops the body unread. */
  cancel(): Promise<void>;
  /** The whole answer as a `Response` (for an error, or `onUnauthorized`). */
  toResponse(): Promise<Response>;
}

/** Opens the event stream (a GET). */
export type StreamFn = (
  url: URL,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<OpenedStream>;

/** The two request shapes the client makes: one long-lived stream, many small POSTs. */
export interface Fetchers {
  stream: StreamFn;
  post: PostFn;
  /**
   * Present when `post` lets go of `init.signal` once the POST is done, so the transport's own
   * long-lived signal may be passed to every POST as is; called once with that signal and how many
   * requests may hold it at once. A `fetch` may keep a listener on its signal until the request is
   * garbage-collected (undici's does): for those each POST gets a short-lived signal of its own.
   */
  shareSignal?: ((signal: AbortSignal, holders: number) => void) | undefined;
  /**
   * Present when the fetchers own their connections (undici on Node): closes every socket they opened,
   * idle or not, and refuses further requests. Called by the transport's `close()`; idempotent.
   */
  close?: (() => Promise<void>) | undefined;
}

// Statuses whose response may not carry a body; `new Response(body, …)` throws for them.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** undici and node:events, imported once per process. */
const importNodeModules = () => Promise.all([import('undici'), import('node:events')]);
let loaded: ReturnType<typeof importNodeModules> | undefined;

/** The `OpenedStream` of a `fetch` answer. */
function openedResponse(response: Response): OpenedStream {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    hasBody: response.body !== null,
    headers: () => response.headers,
    read: async (onText) => {
      if (response.body === null) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        // `stream: true` keeps a multi-byte character split across chunks intact.
        onText(decoder.decode(value, { stream: true }));
      }
    },
    cancel: async () => {
      await response.body?.cancel().catch(() => {});
    },
    toResponse: async () => response,
  };
}

function webHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
    else if (value !== undefined) responseHeaders.set(name, value);
  }
  return responseHeaders;
}

function webResponse(
  status: number,
  statusText: string,
  headers: Record<string, string | string[] | undefined>,
  text: string | null,
): Response {
  const responseHeaders = webHeaders(headers);
  return new Response(NULL_BODY_STATUSES.has(status) ? null : text, {
    status,
    statusText,
    headers: responseHeaders,
  });
}

/** The fetchers of a user-supplied `fetch`. */
export function fetchersOf(fetch: FetchLike): Fetchers {
  const post: PostFn = async (url, init) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: init.signal,
    });
    init.onHead?.(new Response(null, { status: response.status, headers: response.headers }));
    if (!response.ok) return response;
    await response.arrayBuffer();
    return undefined;
  };
  const stream: StreamFn = async (url, init) =>
    openedResponse(await fetch(url, { method: 'GET', headers: init.headers, signal: init.signal }));
  return { stream, post };
}

/**
 * Node: undici, loaded on first use (dynamically, so browser and Workers bundles never pull it in;
 * there the package's `browser` field maps it to an empty module). Every other runtime (browsers,
 * Workers, Deno, Bun) gets its global `fetch`. Both the stream and the POSTs use `undici.request`: about
 * twice as fast per call as its `fetch`, which matters because every message is a round trip of its
 * own, and the stream's body arrives as node `data` events with no Web stream to pass through.
 * `undici.request` drops its abort listener when the answer has been read.
 *
 * Each call (each transport) gets an undici `Agent` of its own, destroyed by `close()`: on the global
 * dispatcher a closed client left sockets behind, idle keep-alive ones and (undici 7.30) one it opens
 * after the aborted GET and never sends a request on. Node never counts such a connection idle, so a
 * server's graceful `close()` waited for it (Fastify: its 60 s headers timeout). An `Agent` costs
 * ~2 µs to create; what a session gives up is a keep-alive connection left by the one before it, and
 * it opens a connection for its long-lived GET in any case.
 */
export async function loadDefaultFetchers(): Promise<Fetchers> {
  if (!isNodeRuntime()) return fetchersOf((url, init) => fetch(url, init));
  loaded ??= importNodeModules();
  const [undici, events] = await loaded;
  // undici's own defaults otherwise (as on its global dispatcher, which this client used before).
  const dispatcher = new undici.Agent();
  const post: PostFn = async (url, init) => {
    const { statusCode, statusText, headers, body } = await undici.request(url, {
      dispatcher,
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: init.signal,
    });
    init.onHead?.(webResponse(statusCode, statusText, headers, null));
    if (statusCode >= 200 && statusCode < 300) {
      await body.dump();
      return undefined;
    }
    return webResponse(statusCode, statusText, headers, await body.text());
  };
  const stream: StreamFn = async (url, init) => {
    const { statusCode, statusText, headers, body } = await undici.request(url, {
      dispatcher,
      method: 'GET',
      headers: init.headers,
      signal: init.signal,
    });
    const contentType = headers['content-type'];
    return {
      status: statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      hasBody: !NULL_BODY_STATUSES.has(statusCode),
      headers: () => webHeaders(headers),
      read: (onText) =>
        new Promise<void>((resolve, reject) => {
          const decoder = new TextDecoder();
          // `stream: true` keeps a multi-byte character split across chunks intact.
          body.on('data', (chunk: Uint8Array) => onText(decoder.decode(chunk, { stream: true })));
          body.once('end', resolve);
          body.once('error', reject);
          // A body destroyed without `end` or an error (undici reports those as errors) still ends.
          body.once('close', () => reject(new Error('The event stream closed before its end')));
        }),
      cancel: async () => {
        body.destroy();
      },
      toResponse: async () => webResponse(statusCode, statusText, headers, await body.text()),
    };
  };
  // Each request in flight holds one abort listener; Node warns of a leak past 10 by default.
  const shareSignal = (signal: AbortSignal, holders: number): void =>
    events.EventEmitter.setMaxListeners(
      Math.max(events.EventEmitter.getMaxListeners(signal), holders),
      signal,
    );
  let closed: Promise<void> | undefined;
  // destroy, not close: the transport aborted its requests, and its GET would never end by itself.
  const close = (): Promise<void> => (closed ??= dispatcher.destroy().catch(() => {}));
  return { stream, post, shareSignal, close };
}
