import type { ServerResponse } from 'node:http';

/**
 * Replaces `from` by `to` in the first chunk written to `res` that holds it (the `endpoint` event of a
 * legacy SSE stream, which names x-mcp's session id where 1.x applications expect their transport's),
 * then steps aside: later writes go straight to the socket.
 *
 * @example
 * ```ts
 * rewriteFirstFrame(res, inner.sessionId, transport.sessionId);
 * ```
 */
export function rewriteFirstFrame(res: ServerResponse, from: string, to: string): void {
  const { write, end } = res;
  const restore = () => {
    res.write = write;
    res.end = end;
  };
  const rewrite = (chunk: unknown): unknown => {
    if (typeof chunk !== 'string' || !chunk.includes(from)) return chunk;
    restore();
    return chunk.replace(from, to);
  };
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    return (write as (...args: unknown[]) => boolean).call(this, rewrite(chunk), ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    restore();
    return (end as (...args: unknown[]) => ServerResponse).call(this, rewrite(chunk), ...rest);
  } as ServerResponse['end'];
}
