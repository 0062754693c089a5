// Statuses whose Response may not carry a body (Fetch "null body status").
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The one byte cap on bodies `@x/auth` reads from peers it does not control (metadata, registration,
 * token and introspection answers, key sets): a `Content-Length` above `maxBytes` is refused before any
 * byte is read, and a streamed body errors with `tooLarge()` at the first chunk that crosses it, its
 * connection cancelled so the rest is never downloaded. The returned `Response` reads like the original.
 *
 * @example
 * ```ts
 * const capped = await capBody(response, 65_536, () => new Error('answered more than 65536 bytes (maxResponseBytes)'));
 * const text = await capped.text(); // rejects with that error past 64 KiB
 * ```
 */
export async function capBody(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Response> {
  const body = response.body;
  if (body === null || NULL_BODY.has(response.status) || response.type === 'opaqueredirect') return response;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => {});
    throw tooLarge();
  }
  const reader = body.getReader();
  let total = 0;
  const capped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        controller.error(tooLarge());
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(capped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
