import type { FetchLike } from './fetch-like.js';

/** The two request shapes the client makes: one long-lived stream, many small POSTs. */
export interface Fetchers {
  stream: FetchLike;
  post: FetchLike;
}

// Statuses whose response may not carry a body; `new Response(body, …)` throws for them.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

let loaded: Promise<Fetchers> | undefined;

function toRecord(headers: HeadersInit | undefined): Record<string, string> {
  // The client passes plain objects; anything else is normalized through Headers.
  if (headers === undefined) return {};
  if (!(headers instanceof Headers) && !Array.isArray(headers)) return headers as Record<string, string>;
  return Object.fromEntries(new Headers(headers));
}

/**
 * undici, loaded on first use (dynamically, so browser and Workers bundles that inject their own
 * `fetch` never pull it in). The stream uses undici's `fetch` for its Web `ReadableStream` body; POSTs
 * use `undici.request`, about twice as fast per call, which matters because order-preserving sends are
 * one round trip each. POST answers are small (202 "Accepted", or an error text), so buffering them
 * into a `Response` costs nothing that matters.
 */
export function loadDefaultFetchers(): Promise<Fetchers> {
  loaded ??= import('undici').then((undici) => {
    const post: FetchLike = async (input, init) => {
      const options: Parameters<typeof undici.request>[1] = {
        method: (init?.method ?? 'POST') as 'POST',
        headers: toRecord(init?.headers),
        body: typeof init?.body === 'string' ? init.body : null,
      };
      if (init?.signal) options.signal = init.signal;
      const { statusCode, statusText, headers, body } = await undici.request(input, options);
      const text = await body.text();
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(headers)) {
        if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
        else if (value !== undefined) responseHeaders.set(name, value);
      }
      return new Response(NULL_BODY_STATUSES.has(statusCode) ? null : text, {
        status: statusCode,
        statusText,
        headers: responseHeaders,
      });
    };
    return { stream: undici.fetch as unknown as FetchLike, post };
  });
  return loaded;
}
