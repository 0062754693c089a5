import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeJsonLine,
  ErrorCode,
  type JSONRPCMessage,
  JsonLineDecoder,
  McpError,
  MessageTooLargeError,
  parseMessage,
  serializeMessage,
  validateMessage,
} from '@x/protocol';

// Modest run counts: the suite shares two cores with everything else.
const runs = { numRuns: 150 } as const;

const text = fc.string({ unit: 'binary', maxLength: 24 });
const id = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant(0),
  fc.constant(Number.MAX_SAFE_INTEGER),
);
const json = fc.jsonValue({ maxDepth: 3 });
const object = fc.dictionary(text, json, { maxKeys: 5 });

/**
 * Every shape of valid JSON-RPC message, with JSON-safe contents: one JSON round trip up front turns
 * the generator's `-0` into the `0` every wire produces.
 */
const message: fc.Arbitrary<JSONRPCMessage> = fc
  .oneof(
    fc.record(
      { jsonrpc: fc.constant('2.0' as const), id, method: text, params: object },
      { requiredKeys: ['jsonrpc', 'id', 'method'] },
    ),
    fc.record(
      { jsonrpc: fc.constant('2.0' as const), method: text, params: object },
      { requiredKeys: ['jsonrpc', 'method'] },
    ),
    fc.record({ jsonrpc: fc.constant('2.0' as const), id, result: object }),
    fc.record(
      {
        jsonrpc: fc.constant('2.0' as const),
        id: fc.oneof(id, fc.constant(null)),
        error: fc.record(
          { code: fc.integer(), message: text, data: json },
          { requiredKeys: ['code', 'message'] },
        ),
      },
      { requiredKeys: ['jsonrpc', 'error'] },
    ),
  )
  .map((generated) => JSON.parse(JSON.stringify(generated)) as JSONRPCMessage);

/** Runs `fn` and classifies its outcome: a value, a typed McpError, or anything else (a bug). */
function outcome(fn: () => unknown): 'ok' | number {
  try {
    fn();
    return 'ok';
  } catch (error) {
    if (error instanceof McpError) return error.code;
    throw new Error(`threw something other than McpError: ${String(error)}`, { cause: error });
  }
}

/** Cuts `whole` at the given positions (any order, repeats allowed) into consecutive pieces. */
function cut<T extends { length: number; slice(start: number, end?: number): T }>(
  whole: T,
  at: number[],
): T[] {
  const positions = [...new Set(at.map((position) => position % (whole.length + 1)))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let start = 0;
  for (const position of positions) {
    pieces.push(whole.slice(start, position));
    start = position;
  }
  pieces.push(whole.slice(start));
  return pieces;
}

function decodeAll(chunks: Array<Uint8Array | string>, maxLineBytes?: number) {
  const messages: JSONRPCMessage[] = [];
  const errors: McpError[] = [];
  const decoder = new JsonLineDecoder(
    { onmessage: (decoded) => messages.push(decoded), onerror: (error) => errors.push(error) },
    { maxLineBytes },
  );
  let maxBuffered = 0;
  for (const chunk of chunks) {
    decoder.push(chunk);
    maxBuffered = Math.max(maxBuffered, decoder.bufferedBytes);
  }
  return { messages, errors, maxBuffered };
}

describe('parseMessage / validateMessage properties', () => {
  it('any string parses to a message or a ParseError/InvalidRequest McpError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.json()), (input) => {
        expect([ErrorCode.ParseError, ErrorCode.InvalidRequest, 'ok']).toContain(
          outcome(() => parseMessage(input)),
        );
      }),
      runs,
    );
  });

  it('valid JSON never yields a ParseError, only a message or InvalidRequest', () => {
    fc.assert(
      fc.property(fc.json(), (input) => {
        expect(['ok', ErrorCode.InvalidRequest]).toContain(outcome(() => parseMessage(input)));
      }),
      runs,
    );
  });

  it('any value at all validates to itself or to an InvalidRequest McpError', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withNullPrototype: true,
          withObjectString: true,
          withSet: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (value) => {
          let result: unknown;
          const code = outcome(() => {
            result = validateMessage(value);
          });
          if (code === 'ok') expect(result).toBe(value);
          else expect(code).toBe(ErrorCode.InvalidRequest);
        },
      ),
      runs,
    );
  });

  it('envelope-shaped objects with arbitrary member values never throw anything but McpError', () => {
    const member = fc.oneof(json, fc.anything(), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.record(
          {
            jsonrpc: fc.oneof(fc.constant('2.0'), member),
            id: member,
            method: member,
            params: member,
            result: member,
            error: member,
          },
          { requiredKeys: [] },
        ),
        (value) => {
          expect(['ok', ErrorCode.InvalidRequest]).toContain(outcome(() => validateMessage(value)));
        },
      ),
      runs,
    );
  });

  it('every valid message is accepted and survives serialize → parse unchanged', () => {
    fc.assert(
      fc.property(message, (original) => {
        expect(validateMessage(original)).toBe(original);
        expect(parseMessage(serializeMessage(original))).toEqual(original);
      }),
      runs,
    );
  });
});

describe('JsonLineDecoder properties', () => {
  it('arbitrary byte chunks yield messages or McpErrors, never an exception, within the line limit', () => {
    const limit = 256;
    const chunk = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.constant(new Uint8Array([0x0a])),
      fc.constant(new Uint8Array([0x0d, 0x0a])),
      message.map((valid) => new TextEncoder().encode(encodeJsonLine(valid))),
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 20 }), (chunks) => {
        const { errors, maxBuffered } = decodeAll(chunks, limit);
        expect(errors.every((error) => error instanceof McpError)).toBe(true);
        expect(maxBuffered).toBeLessThanOrEqual(limit);
      }),
      runs,
    );
  });

  it('arbitrary string chunks, newlines included, never make push() throw', () => {
    const chunk = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('\n', '\r\n', '{', '}\n'),
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 30 }), (chunks) => {
        const { errors } = decodeAll(chunks);
        expect(errors.every((error) => error instanceof McpError)).toBe(true);
      }),
      runs,
    );
  });

  it('valid messages survive encode → arbitrary byte chunking → decode unchanged and in order', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (messages, at) => {
          const stream = new TextEncoder().encode(messages.map(encodeJsonLine).join(''));
          const decoded = decodeAll(cut(stream, at));
          expect(decoded.errors).toEqual([]);
          expect(decoded.messages).toEqual(messages);
        },
      ),
      runs,
    );
  });

  it('valid messages survive arbitrary string chunking too, even between surrogate halves', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (messages, at) => {
          const decoded = decodeAll(cut(messages.map(encodeJsonLine).join(''), at));
          expect(decoded.errors).toEqual([]);
          expect(decoded.messages).toEqual(messages);
        },
      ),
      runs,
    );
  });

  it('each non-blank line yields exactly one message or one error, and the valid ones come through', () => {
    const limit = 512;
    const garbage = fc.string({ unit: 'binary', maxLength: 600 }).map((line) => line.replaceAll('\n', ''));
    const line = fc.oneof(
      message.map((valid) => ({ valid, text: encodeJsonLine(valid).slice(0, -1) })),
      garbage.map((text) => ({ valid: undefined, text })),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 10 }), (lines, at) => {
        const stream = new TextEncoder().encode(lines.map((entry) => `${entry.text}\n`).join(''));
        const decoded = decodeAll(cut(stream, at), limit);
        const roundTrip = (entry: { text: string }) =>
          new TextDecoder().decode(new TextEncoder().encode(entry.text)).trim();
        const nonBlank = lines.filter((entry) => roundTrip(entry) !== '');
        expect(decoded.messages.length + decoded.errors.length).toBe(nonBlank.length);
        const fitting = lines.filter(
          (entry) => entry.valid !== undefined && new TextEncoder().encode(entry.text).length <= limit,
        );
        for (const entry of fitting) expect(decoded.messages).toContainEqual(entry.valid);
        const oversized = lines.filter((entry) => new TextEncoder().encode(entry.text).length > limit);
        expect(decoded.errors.filter((error) => error instanceof MessageTooLargeError)).toHaveLength(
          oversized.length,
        );
      }),
      runs,
    );
  });
});
