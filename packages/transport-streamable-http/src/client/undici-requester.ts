import { Agent, request } from 'undici';
import type { HttpReply, HttpRequester } from './requester.js';

/** An {@link HttpRequester} on undici's `request` with its own keep-alive pool; `close()` frees it. */
export interface UndiciRequester {
  requester: HttpRequester;
  close(): Promise<void>;
}

/**
 * The Node default: undici's `request` API skips the WHATWG `fetch` machinery (Request/Response objects,
 * web streams per chunk), which is markedly faster on loopback. Timeouts are off because SSE streams and
 * slow tools legitimately stay quiet; the protocol engine owns request timeouts and aborts instead.
 */
export function createUndiciRequester(): UndiciRequester {
  const agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
  const requester: HttpRequester = async (req) => {
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal ?? null,
      dispatcher: agent,
    });
    const { statusCode, headers, body } = response;
    const header = (name: string): string | null => {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const reply: HttpReply = {
      status: statusCode,
      header,
      text: () => body.text(),
      chunks: () => body,
      discard: async () => {
        await body.dump().catch(() => {});
      },
      toResponse: () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(headers)) {
          if (value === undefined) continue;
          if (Array.isArray(value)) for (const v of value) out.append(name, v);
          else out.set(name, value);
        }
        const nullBody = statusCode === 204 || statusCode === 304 || statusCode < 200;
        return new Response(nullBody ? null : (body as unknown as ReadableStream<Uint8Array>), {
          status: statusCode,
          headers: out,
        });
      },
    };
    return reply;
  };
  // destroy, not close: in-flight streams were already aborted, and nothing should wait on them.
  return { requester, close: () => agent.destroy() };
}
