/**
 * Server-Sent Events wire encoding (WHATWG HTML, "Server-sent events", §9.2.5 "Event stream
 * interpretation"). Runtime-neutral: strings in, strings out.
 */

/**
 * One event as it goes on the wire.
 *
 * @example
 * ```ts
 * const event: SseEvent = {
 *   event: 'message',
 *   id: '42',
 *   data: JSON.stringify({ jsonrpc: '2.0', method: 'ping', id: 1 }),
 * };
 * const chunk = encodeSseEvent(event); // 'event: message\nid: 42\ndata: {...}\n\n'
 * ```
 */
export interface SseEvent {
  /** The `event:` field; omitted means the client dispatches a `message` event. */
  event?: string | undefined;
  /** The `data:` field(s); omitted for a frame that only sets `retry` (no event is dispatched). */
  data?: string | undefined;
  id?: string | undefined;
  /** The `retry:` field: how long the client waits before reconnecting, in ms (a non-negative integer). */
  retry?: number | undefined;
}

// CR, LF and CRLF all end a line in an event stream, so every one of them must become a new `data:` line.
const LINE_BREAK = /\r\n|\r|\n/;

/** Whether `value` holds a line break; two `indexOf` scans beat a regex on long single-line JSON. */
function hasLineBreak(value: string): boolean {
  return value.indexOf('\n') !== -1 || value.indexOf('\r') !== -1;
}

function assertSingleLine(field: string, value: string): void {
  if (hasLineBreak(value)) throw new TypeError(`SSE ${field} must not contain a line break`);
}

/**
 * Encodes one event. Every field is checked for line breaks (CR, LF, CRLF all end a line on the wire,
 * so one inside `id` or `event` would forge a field): a line break in `id` or `event` throws a
 * `TypeError`; multi-line data is split over several `data:` fields, which the receiver joins back
 * with `\n`.
 *
 * @example
 * ```ts
 * encodeSseEvent({ event: 'endpoint', data: '/messages?sessionId=abc' });
 * // 'event: endpoint\ndata: /messages?sessionId=abc\n\n'
 * ```
 */
export function encodeSseEvent(event: SseEvent): string {
  let out = '';
  if (event.event !== undefined) {
    assertSingleLine('event', event.event);
    out += `event: ${event.event}\n`;
  }
  if (event.id !== undefined) {
    assertSingleLine('id', event.id);
    out += `id: ${event.id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0)
      throw new TypeError(`SSE retry must be a non-negative integer, got ${event.retry}`);
    out += `retry: ${event.retry}\n`;
  }
  // JSON.stringify output never holds a raw line break, so the common case is one line and no split.
  const data = event.data;
  if (data === undefined) return out + '\n';
  if (hasLineBreak(data)) {
    for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  } else {
    out += `data: ${data}\n`;
  }
  return out + '\n';
}

/**
 * Encodes a comment line. Clients ignore comments; servers send them to keep idle connections (and the
 * proxies in between) from timing out.
 *
 * @example
 * ```ts
 * encodeSseComment('keep-alive'); // ': keep-alive\n\n'
 * ```
 */
export function encodeSseComment(text = ''): string {
  assertSingleLine('comment', text);
  return `: ${text}\n\n`;
}
