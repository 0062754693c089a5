import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseEvent } from '../src/index.js';

describe('encodeSseEvent', () => {
  it('splits every kind of line break into data fields and refuses one in a field name', () => {
    expect(encodeSseEvent({ event: 'endpoint', data: '/m?sessionId=1' })).toBe(
      'event: endpoint\ndata: /m?sessionId=1\n\n',
    );
    expect(encodeSseEvent({ data: 'a\nb\r\nc\rd', id: '7' })).toBe(
      'id: 7\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
    expect(() => encodeSseEvent({ event: 'a\nb', data: '' })).toThrow(TypeError);
    expect(encodeSseComment('keep-alive')).toBe(': keep-alive\n\n');
  });
});
