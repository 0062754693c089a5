import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeJsonLine,
  ErrorCode,
  type JSONRPCMessage,
  JsonLineDecoder,
  type JsonLineDecoderOptions,
  McpError,
  MessageTooLargeError,
} from '@x/protocol';

function collect(options?: JsonLineDecoderOptions) {
  const messages: JSONRPCMessage[] = [];
  const errors: McpError[] = [];
  const decoder = new JsonLineDecoder(
    { onmessage: (message) => messages.push(message), onerror: (error) => errors.push(error) },
    options,
  );
  return { decoder, messages, errors };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const first: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'héllo € 😀' } };
const second: JSONRPCMessage = {
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { note: '\u2028\n' },
};
const third: JSONRPCMessage = { jsonrpc: '2.0', id: 'x', result: { '😀': ['é'] } };

describe('JsonLineDecoder framing', () => {
  it('decodes one message per line, from strings and from bytes', () => {
    const { decoder, messages, errors } = collect();
    decoder.push(encodeJsonLine(first));
    decoder.push(bytes(encodeJsonLine(second)));
    expect(messages).toEqual([first, second]);
    expect(errors).toEqual([]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('decodes several messages that arrive in one chunk', () => {
    const { decoder, messages } = collect();
    decoder.push(bytes(encodeJsonLine(first) + encodeJsonLine(second) + encodeJsonLine(third)));
    expect(messages).toEqual([first, second, third]);
  });

  it('reassembles a line split at every byte position, including inside multi-byte characters', () => {
    const stream = bytes(encodeJsonLine(first) + encodeJsonLine(second));
    for (let cut = 0; cut <= stream.length; cut += 1) {
      const { decoder, messages, errors } = collect();
      decoder.push(stream.subarray(0, cut));
      decoder.push(stream.subarray(cut));
      expect(messages, `split at byte ${cut}`).toEqual([first, second]);
      expect(errors).toEqual([]);
    }
  });

  it('reassembles a line cut into three pieces at every pair of positions', () => {
    const stream = bytes(encodeJsonLine(third));
    for (let a = 0; a <= stream.length; a += 1) {
      for (let b = a; b <= stream.length; b += 1) {
        const { decoder, messages } = collect();
        decoder.push(stream.subarray(0, a));
        decoder.push(stream.subarray(a, b));
        decoder.push(stream.subarray(b));
        expect(messages, `cuts at ${a}, ${b}`).toEqual([third]);
      }
    }
  });

  it('decodes a stream fed one byte at a time, and copies partial chunks the caller may reuse', () => {
    const { decoder, messages } = collect();
    const stream = bytes(encodeJsonLine(first) + encodeJsonLine(third));
    const reused = new Uint8Array(1);
    for (const byte of stream) {
      reused[0] = byte;
      decoder.push(reused);
    }
    expect(messages).toEqual([first, third]);
  });

  it('joins a surrogate pair split across two string chunks (regression)', () => {
    const line = encodeJsonLine(first);
    const emoji = line.indexOf('😀');
    const { decoder, messages, errors } = collect();
    decoder.push(line.slice(0, emoji + 1)); // ends with the high surrogate alone
    decoder.push(line.slice(emoji + 1));
    expect(errors).toEqual([]);
    expect(messages).toEqual([first]);
  });

  it('accepts \\r\\n line endings and ignores blank and whitespace-only lines', () => {
    const { decoder, messages, errors } = collect();
    decoder.push(`\n\r\n   \n${JSON.stringify(first)}\r\n\r\n\t\r\n${JSON.stringify(second)}\r`);
    decoder.push('\n\n');
    expect(messages).toEqual([first, second]);
    expect(errors).toEqual([]);
  });

  it('reports invalid JSON as ParseError and carries on with the next line', () => {
    const { decoder, messages, errors } = collect();
    decoder.push(`{"jsonrpc":"2.0",\n${encodeJsonLine(first)}not json\n`);
    expect(messages).toEqual([first]);
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(ErrorCode.ParseError);
    }
  });

  it('reports JSON that is not a JSON-RPC message as InvalidRequest', () => {
    const { decoder, messages, errors } = collect();
    decoder.push('42\n"text"\nnull\n[1,2]\n{"jsonrpc":"2.0"}\n{"jsonrpc":"1.0","id":1,"method":"x"}\n');
    expect(messages).toEqual([]);
    expect(errors.map((error) => error.code)).toEqual(Array(6).fill(ErrorCode.InvalidRequest));
  });

  it('reports a line of invalid UTF-8 as ParseError instead of decoding replacement characters', () => {
    const { decoder, messages, errors } = collect();
    const broken = bytes('{"jsonrpc":"2.0","method":"x","params":{"a":"__"}}\n');
    broken.set([0xff, 0xc3], broken.indexOf(0x5f)); // an invalid byte and a truncated sequence
    decoder.push(broken);
    decoder.push(encodeJsonLine(second));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe(ErrorCode.ParseError);
    expect(messages).toEqual([second]);
  });
});

describe('JsonLineDecoder with many lines per chunk', () => {
  // The complete lines of a chunk are decoded in one go; these lines need the strict per-line path or
  // per-line clean-up, and must come out exactly as if they had arrived one per chunk.
  const withReplacement: JSONRPCMessage = { jsonrpc: '2.0', method: 'x', params: { text: 'a \ufffd b' } };
  const invalidUtf8 = (): Uint8Array => {
    const line = bytes('{"jsonrpc":"2.0","method":"bad","params":{"a":"__"}}\n');
    line.set([0xed, 0xa0], line.indexOf(0x5f)); // the start of an encoded surrogate: never valid UTF-8
    return line;
  };
  type Line = { bytes: Uint8Array; expect: JSONRPCMessage | 'parse-error' | 'nothing' };
  const line = fc.oneof(
    fc.constantFrom<Line>(
      { bytes: bytes(encodeJsonLine(first)), expect: first },
      { bytes: bytes(encodeJsonLine(third)), expect: third },
      { bytes: bytes(encodeJsonLine(withReplacement)), expect: withReplacement },
      { bytes: bytes(`\ufeff${JSON.stringify(second)}\r\n`), expect: second },
      { bytes: bytes(`${JSON.stringify(first)}\r\n`), expect: first },
      { bytes: bytes(' \t\r\n'), expect: 'nothing' },
      { bytes: bytes('{"jsonrpc":\n'), expect: 'parse-error' },
    ),
    fc.constant(null).map((): Line => ({ bytes: invalidUtf8(), expect: 'parse-error' })),
  );

  it('gives every line the outcome it has alone, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (lines, cuts) => {
          const stream = new Uint8Array(lines.reduce((sum, entry) => sum + entry.bytes.length, 0));
          let offset = 0;
          for (const entry of lines) {
            stream.set(entry.bytes, offset);
            offset += entry.bytes.length;
          }
          const events: unknown[] = [];
          const decoder = new JsonLineDecoder({
            onmessage: (message) => events.push(message),
            onerror: (error) => events.push(error.code === ErrorCode.ParseError ? 'parse-error' : error),
          });
          const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
          let from = 0;
          for (const point of [...points, stream.length]) {
            decoder.push(stream.slice(from, point));
            from = point;
          }
          expect(events).toEqual(
            lines.filter((entry) => entry.expect !== 'nothing').map((entry) => entry.expect),
          );
          expect(decoder.bufferedBytes).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a real U+FFFD and strips a byte order mark on every line of a chunk', () => {
    const { decoder, messages, errors } = collect();
    decoder.push(
      bytes(
        `${encodeJsonLine(first)}\ufeff${JSON.stringify(withReplacement)}\n\ufeff${JSON.stringify(third)}\n`,
      ),
    );
    expect(messages).toEqual([first, withReplacement, third]);
    expect(errors).toEqual([]);
  });
});

describe('JsonLineDecoder line limit', () => {
  const limit = 64;
  const oversized = `{"jsonrpc":"2.0","method":"x","params":{"pad":"${'p'.repeat(limit)}"}}\n`;

  it('drops an oversized line that arrives whole with exactly one MessageTooLargeError', () => {
    const { decoder, messages, errors } = collect({ maxLineBytes: limit });
    decoder.push(oversized + encodeJsonLine({ jsonrpc: '2.0', method: 'ok' }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect((errors[0] as MessageTooLargeError).limit).toBe(limit);
    expect(errors[0]?.code).toBe(ErrorCode.InvalidRequest);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }]);
  });

  it('drops an oversized line that trickles in, reporting once and resuming after its newline', () => {
    for (const size of [1, 3, 7, 64, 65, 200]) {
      const { decoder, messages, errors } = collect({ maxLineBytes: limit });
      const stream = bytes(oversized + oversized + encodeJsonLine({ jsonrpc: '2.0', method: 'ok' }));
      let maxBuffered = 0;
      for (let offset = 0; offset < stream.length; offset += size) {
        decoder.push(stream.subarray(offset, offset + size));
        maxBuffered = Math.max(maxBuffered, decoder.bufferedBytes);
      }
      expect(errors.length, `chunks of ${size}`).toBe(2);
      expect(errors.every((error) => error instanceof MessageTooLargeError)).toBe(true);
      expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }]);
      expect(maxBuffered).toBeLessThanOrEqual(limit);
    }
  });

  it('keeps memory bounded on an endless line: bufferedBytes never exceeds the limit', () => {
    const { decoder, errors } = collect({ maxLineBytes: 1024 });
    const chunk = bytes('x'.repeat(300));
    for (let index = 0; index < 1000; index += 1) {
      decoder.push(chunk);
      expect(decoder.bufferedBytes).toBeLessThanOrEqual(1024);
    }
    expect(errors).toHaveLength(1);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('accepts a line of exactly the limit and rejects one byte more, whole or split', () => {
    const exact = `{"jsonrpc":"2.0","method":"${'m'.repeat(limit - 29)}"}`;
    expect(bytes(exact).length).toBe(limit);
    const over = `{"jsonrpc":"2.0","method":"${'m'.repeat(limit - 28)}"}`;
    for (const split of [false, true]) {
      const { decoder, messages, errors } = collect({ maxLineBytes: limit });
      for (const line of [exact, over]) {
        if (split) {
          decoder.push(line.slice(0, 10));
          decoder.push(line.slice(10));
          decoder.push('\n');
        } else {
          decoder.push(`${line}\n`);
        }
      }
      expect(messages).toHaveLength(1);
      expect(errors).toHaveLength(1);
    }
  });
});

describe('JsonLineDecoder reset and sinks', () => {
  it('reset() drops an unfinished line and says whether it did', () => {
    const { decoder, messages } = collect();
    expect(decoder.reset()).toBe(false);
    decoder.push('{"jsonrpc":"2.0",');
    expect(decoder.bufferedBytes).toBeGreaterThan(0);
    expect(decoder.reset()).toBe(true);
    expect(decoder.bufferedBytes).toBe(0);
    decoder.push(encodeJsonLine(first));
    expect(messages).toEqual([first]);
  });

  it('reset() from inside a sink drops the rest of the chunk being decoded', () => {
    const messages: JSONRPCMessage[] = [];
    const decoder: JsonLineDecoder = new JsonLineDecoder({
      onmessage: (message) => {
        messages.push(message);
        decoder.reset();
      },
      onerror: () => undefined,
    });
    decoder.push(encodeJsonLine(first) + encodeJsonLine(second) + '{"partial');
    expect(messages).toEqual([first]);
    expect(decoder.bufferedBytes).toBe(0);
    decoder.push(encodeJsonLine(third));
    expect(messages).toEqual([first, third]);
  });

  it('a throwing sink loses no framing: the chunk is finished, then the first error is rethrown (regression)', () => {
    const messages: JSONRPCMessage[] = [];
    const decoder = new JsonLineDecoder({
      onmessage: (message) => {
        messages.push(message);
        if (messages.length === 1) throw new Error('handler bug');
      },
      onerror: () => {
        throw new Error('reporter bug');
      },
    });
    expect(() =>
      decoder.push(encodeJsonLine(first) + 'bad json\n' + encodeJsonLine(second) + '{"jsonrpc"'),
    ).toThrow('handler bug');
    expect(messages).toEqual([first, second]);
    decoder.push(':"2.0","id":2,"result":{}}\n');
    expect(messages).toEqual([first, second, { jsonrpc: '2.0', id: 2, result: {} }]);
  });
});

describe('encodeJsonLine', () => {
  it('frames a message as exactly one line, whatever its strings hold', () => {
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'x',
      params: { text: 'a\nb\r\nc\u2028d\u2029' },
    };
    const line = encodeJsonLine(message);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(line.includes('\r')).toBe(false);
    const { decoder, messages } = collect();
    decoder.push(line);
    expect(messages).toEqual([message]);
  });
});
