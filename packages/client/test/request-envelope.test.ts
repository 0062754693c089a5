import { MetaKey } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { RequestEnvelope } from '../src/modern/request-envelope.js';

const META = {
  [MetaKey.ProtocolVersion]: '2026-07-28',
  [MetaKey.ClientCapabilities]: { roots: {} },
  [MetaKey.ClientInfo]: { name: 'c', version: '1' },
};

function envelope(): RequestEnvelope {
  const result = new RequestEnvelope({ name: 'c', version: '1' }, () => ({ roots: {} }));
  result.version = '2026-07-28';
  return result;
}

describe('RequestEnvelope.apply (2026-07-28 "Per-request protocol fields")', () => {
  it('adds the envelope in _meta on a copy, keeping the caller params and their own _meta keys', () => {
    const params = { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7 } };
    const frozen = Object.freeze({ ...params, _meta: Object.freeze({ ...params._meta }) });
    const out = envelope().apply(frozen);
    expect(out).toEqual({ name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7, ...META } });
    expect(frozen._meta).toEqual({ progressToken: 7 });
    expect(envelope().apply(undefined)).toEqual({ _meta: META });
    // The envelope wins over a caller's stale copy of one of its keys.
    expect(envelope().apply({ _meta: { [MetaKey.ProtocolVersion]: 'old' } })['_meta']).toEqual(META);
  });

  it('copies an own "__proto__" key (from JSON.parse) as data instead of setting the prototype', () => {
    const params = JSON.parse('{"name":"echo","__proto__":{"polluted":true},"_meta":{"__proto__":{"x":1}}}');
    const out = envelope().apply(params);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    const meta = out['_meta'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.hasOwn(meta, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      JSON.parse(JSON.stringify({ ...params, _meta: { ...params._meta, ...META } })),
    );
  });
});
