/**
 * Whether `url` is a legacy HTTP+SSE endpoint (2024-11-05 "HTTP with SSE"): a GET with
 * `Accept: text/event-stream` opens an event stream whose first event is `endpoint` (the URL to POST
 * to). Used to explain a failed `--transport http`: such a server refuses the Streamable HTTP POST with a
 * 4xx that alone says nothing. Gives up (false) after `timeoutMs` or on any error; closes the stream.
 *
 * @example
 * ```ts
 * if (await isSseEndpoint(new URL('http://127.0.0.1:3000/sse'), {})) console.error('use --transport sse');
 * ```
 */
export async function isSseEndpoint(
  url: URL,
  headers: Readonly<Record<string, string>>,
  timeoutMs = 3_000,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      return false;
    }
    const reader = response.body?.getReader();
    if (reader === undefined) return false;
    const decoder = new TextDecoder();
    let text = '';
    // The first event is enough (spec: "the server MUST send an endpoint event" when the stream opens).
    while (!text.includes('\n\n') && !text.includes('\r\n\r\n') && text.length < 4096) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return /^event:\s*endpoint\s*$/m.test(text);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
