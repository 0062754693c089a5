/// <reference types="node" />
// The build compiles @x/protocol without Node types (`types: []`); only this Node-only subpath loads them.
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') === true;
}

/**
 * Writes a Web `Response` (a handler's, a hook's, an error) to a `node:http` response. A finite body
 * goes out in one write with its length; an event stream is piped with backpressure, cancelled when the
 * client goes away, and cut (not ended cleanly) when it errors, so the client sees it was truncated.
 *
 * @example
 * ```ts
 * createServer(async (req, res) => {
 *   await writeWebResponse(new Response('ok', { headers: { 'content-type': 'text/plain' } }), res);
 * });
 * ```
 */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  // Null prototype: a header name is data, never a property of Object.prototype.
  const headers: Record<string, string | string[]> = Object.create(null);
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const statusText = response.statusText === '' ? undefined : response.statusText;
  if (response.body === null || !isEventStream(response)) {
    // Ordinary answers (202, JSON, errors) are small: one write with a Content-Length beats chunked output.
    const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, statusText, headers).end(body);
    return;
  }
  res.writeHead(response.status, statusText, headers);
  await writeStream(response.body, res);
}

async function writeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  // A client that disconnects cancels the body, which ends the session or request behind it.
  const cancel = (): void => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  // The headers leave with the first event when it is ready in this turn of the event loop, else on
  // their own, so the client sees the stream open at once.
  let wrote = false;
  const flush = setImmediate(() => {
    if (!wrote && !res.destroyed) res.flushHeaders();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      wrote = true;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = (): void => {
            res.off('drain', settle);
            res.off('close', settle);
            resolve();
          };
          res.on('drain', settle);
          res.on('close', settle);
        });
      }
    }
    if (!res.destroyed) res.end();
  } catch {
    // The stream errored (e.g. a stalled reader was dropped): cut the connection, do not end it cleanly.
    res.destroy();
  } finally {
    clearImmediate(flush);
    res.off('close', cancel);
  }
}
