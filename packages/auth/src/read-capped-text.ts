import { capBody } from './capped-body.js';

/** A body over the cap; its message (`answered more than N bytes (option)`) names the option. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
}

/**
 * Reads a response body as UTF-8 text, refusing (and cancelling) it once it passes `maxBytes`, so a
 * peer cannot make us buffer an unbounded answer. A declared `Content-Length` over the cap is refused
 * before any byte is read. The error message names `option`, the setting that raises the cap.
 *
 * @example
 * ```ts
 * const text = await readCappedText(response, { maxBytes: 65_536, option: 'introspection.maxResponseBytes' });
 * ```
 */
export async function readCappedText(
  response: Response,
  limit: { maxBytes: number; option: string },
): Promise<string> {
  const tooLarge = () => new ResponseTooLarge(`answered more than ${limit.maxBytes} bytes (${limit.option})`);
  return (await capBody(response, limit.maxBytes, tooLarge)).text();
}
