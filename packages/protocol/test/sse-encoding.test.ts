import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseEvent } from '../src/http/index.js';

// WHATWG HTML §9.2.6 "Interpreting an event stream": "Lines must be separated by either a U+000D
// CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF) character, or a
// single U+000D CARRIAGE RETURN (CR) character": a line break inside any field would start a new field.
describe('encodeSseEvent (the one SSE encoder of both HTTP transports)', () => {
  it('splits every kind of line break into data fields', () => {
    expect(encodeSseEvent({ event: 'endpoint', data: '/m?sessionId=1' })).toBe(
      'event: endpoint\ndata: /m?sessionId=1\n\n',
    );
    expect(encodeSseEvent({ data: 'a\nb\r\nc\rd', id: '7' })).toBe(
      'id: 7\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
    expect(encodeSseComment('keep-alive')).toBe(': keep-alive\n\n');
  });

  it('refuses a line break in id, event and comment with a TypeError naming the field', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\r\nb']) {
      expect(() => encodeSseEvent({ event: bad, data: '' })).toThrow(
        /SSE event must not contain a line break/,
      );
      // An event store's id with a line break would forge a `data:` or `event:` line.
      expect(() => encodeSseEvent({ id: bad, data: '{}' })).toThrow(/SSE id must not contain a line break/);
      expect(() => encodeSseComment(bad)).toThrow(TypeError);
    }
  });

  it('writes the priming event and retry-only frames of Streamable HTTP', () => {
    expect(encodeSseEvent({ id: 's1_0', retry: 1000, data: '' })).toBe('id: s1_0\nretry: 1000\ndata: \n\n');
    expect(encodeSseEvent({ retry: 500 })).toBe('retry: 500\n\n');
    expect(() => encodeSseEvent({ retry: -1 })).toThrow(/retry must be a non-negative integer/);
  });
});
