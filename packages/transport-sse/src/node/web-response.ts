import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') === true;
}

/** Writes a Web `Response` (a user handler's, or an `authenticate` hook's) to `res`. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  // Null prototype: a header name is data, never a property of Object.prototype.
  const headers: Record<string, string | string[]> = Object.create(null);
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body === null || !isEventStream(response)) {
    // Ordinary answers (202, errors) are small: one write with a Content-Length beats chunked output.
    const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, response.statusText, headers).end(body);
    return;
  }
  res.writeHead(response.status, response.statusText, headers);
  await writeBody(response.body, res);
}

async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  // A client that disconnects cancels the body, which ends the SSE session behind it.
  const cancel = (): void => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  // The headers leave with the first event when it is ready in this turn of the event loop (the
  // `endpoint` event always is), else on their own, so the client sees the stream open at once.
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
  } catch {
    // The stream was cancelled because the response closed; nothing left to write to.
  } finally {
    clearImmediate(flush);
    res.off('close', cancel);
    if (!res.destroyed) res.end();
  }
}
