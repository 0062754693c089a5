import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_NESTING_DEPTH,
  ErrorCode,
  exceedsNestingDepth,
  JsonLineDecoder,
  McpError,
  MessageTooLargeError,
  parseMessage,
  parseMessageOrBatch,
} from '@x/protocol';

/** Depth as JSON.parse would build it, measured on the parsed value. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('exceedsNestingDepth', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(exceedsNestingDepth(nested(3), 3)).toBe(false);
    expect(exceedsNestingDepth(nested(4), 3)).toBe(true);
    expect(exceedsNestingDepth('{"a":{"b":{"c":1}}}', 2)).toBe(true);
    expect(exceedsNestingDepth('{"a":"[[[[[[[[[[{{{{{{{{"}', 1)).toBe(false);
    expect(exceedsNestingDepth('["\\"[[[[[[[", "\\\\", [1]]', 2)).toBe(false);
    expect(exceedsNestingDepth('["\\\\"[[[[[[', 2)).toBe(true);
  });

  it('agrees with the depth of the parsed value for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(exceedsNestingDepth(text, limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 2411, numRuns: 500 },
    );
  });
});

describe('parsing refuses deep nesting before JSON.parse builds it', () => {
  const errorOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  };

  it('answers -32700 naming the limit for a 4 MB [[[[…]]]] message', () => {
    const error = errorOf(() => parseMessageOrBatch(nested(2 * 1024 * 1024)));
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.ParseError);
    expect((error as McpError).message).toContain(`maxNestingDepth (${DEFAULT_MAX_NESTING_DEPTH})`);
    expect((error as McpError).data).toEqual({
      limit: 'maxNestingDepth',
      maxNestingDepth: DEFAULT_MAX_NESTING_DEPTH,
    });
  });

  it('takes messages up to the limit and honours a smaller or larger one', () => {
    const deepParams = (depth: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"x","params":{"v":${nested(depth - 2)}}}`;
    expect(parseMessage(deepParams(DEFAULT_MAX_NESTING_DEPTH))).toMatchObject({ id: 1 });
    expect(() => parseMessage(deepParams(DEFAULT_MAX_NESTING_DEPTH + 1))).toThrow(/maxNestingDepth/);
    expect(() => parseMessage(deepParams(10), { maxNestingDepth: 9 })).toThrow(/maxNestingDepth \(9\)/);
    expect(parseMessage(deepParams(500), { maxNestingDepth: 500 })).toMatchObject({ id: 1 });
  });

  it('reports a deep line from the line decoder and goes on with the next one', () => {
    const messages: unknown[] = [];
    const errors: McpError[] = [];
    const decoder = new JsonLineDecoder(
      { onmessage: (message) => messages.push(message), onerror: (error) => errors.push(error) },
      { maxNestingDepth: 8 },
    );
    decoder.push(`${nested(9)}\n{"jsonrpc":"2.0","method":"ping"}\n`);
    expect(errors.map((error) => error.code)).toEqual([ErrorCode.ParseError]);
    expect(errors[0]?.message).toContain('maxNestingDepth (8)');
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ping' }]);
  });
});

describe('an oversized line keeps what its first bytes show', () => {
  const oversized = (prefix: string) => `${prefix}"${'x'.repeat(300)}"}\n`;
  const dropped = (text: string, chunked: boolean) => {
    const errors: McpError[] = [];
    const decoder = new JsonLineDecoder(
      { onmessage: () => undefined, onerror: (error) => errors.push(error) },
      { maxLineBytes: 200 },
    );
    if (chunked) for (let at = 0; at < text.length; at += 50) decoder.push(text.slice(at, at + 50));
    else decoder.push(text);
    expect(errors).toHaveLength(1);
    return errors[0] as MessageTooLargeError;
  };

  for (const chunked of [false, true]) {
    it(`names a response's id, and a request's id as data.id (${chunked ? 'in chunks' : 'whole'})`, () => {
      const response = dropped(oversized('{"jsonrpc":"2.0","id":7,"result":{"v":'), chunked);
      expect(response).toBeInstanceOf(MessageTooLargeError);
      expect(response.head).toEqual({ id: 7, kind: 'response' });
      expect(response.data).toEqual({ limit: 200 });
      const request = dropped(
        oversized('{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"v":'),
        chunked,
      );
      expect(request.head).toEqual({ id: 'r-1', kind: 'request' });
      expect(request.data).toEqual({ limit: 200, id: 'r-1' });
      // An id that is not shown plainly up front is not guessed.
      expect(
        dropped(oversized('{"jsonrpc":"2.0","method":"x","id":3,"params":{"v":'), chunked).head,
      ).toBeUndefined();
      expect(
        dropped(oversized('{"jsonrpc":"2.0","id":{"a":1},"result":{"v":'), chunked).head,
      ).toBeUndefined();
    });
  }
});
