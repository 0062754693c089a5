import { describe, expect, it } from 'vitest';
import {
  acceptsBatches,
  BATCH_PROTOCOL_VERSION,
  BatchResponses,
  DEFAULT_MAX_BATCH_SIZE,
  ErrorCode,
  JsonLineDecoder,
  type JSONRPCMessage,
  type JSONRPCResponse,
  McpError,
  parseMessageOrBatch,
  readBatch,
} from '../src/index.js';

// 2025-03-26 basic: "MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving
// JSON-RPC batches." 2025-03-26 lifecycle: "The initialize request MUST NOT be part of a JSON-RPC batch."
// Batches were removed in 2025-06-18, so only a 2025-03-26 session accepts them.
const V = '2025-03-26';
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' }) as const;
const note = { jsonrpc: '2.0', method: 'notifications/roots/list_changed' } as const;
const ok = (id: number | string): JSONRPCResponse => ({ jsonrpc: '2.0', id, result: {} });

function refusal(values: unknown[], protocolVersion: string | undefined, maxBatchSize?: number) {
  const reading = readBatch(values, { protocolVersion, maxBatchSize });
  if (reading.ok) throw new Error('expected the batch to be refused');
  return reading.error;
}

describe('readBatch', () => {
  it('accepts a batch on 2025-03-26 only', () => {
    expect(BATCH_PROTOCOL_VERSION).toBe(V);
    expect(acceptsBatches(V)).toBe(true);
    for (const version of [undefined, '2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28']) {
      expect(acceptsBatches(version)).toBe(false);
      const error = refusal([ping(1)], version);
      expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest } });
      expect(error.error.message).toContain(V);
    }
    const reading = readBatch([ping(1), note, ok(9)], { protocolVersion: V });
    expect(reading).toEqual({ ok: true, messages: [ping(1), note, ok(9)], errors: [] });
  });

  it('refuses an empty array with one -32600 (JSON-RPC: "rpc call with an empty Array")', () => {
    expect(refusal([], V)).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
  });

  it('refuses a batch holding initialize, even on 2025-03-26', () => {
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} };
    const error = refusal([ping(1), initialize], V);
    expect(error).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(error.error.message).toMatch(/initialize/);
  });

  it('refuses a batch over the size limit (default 1000)', () => {
    expect(DEFAULT_MAX_BATCH_SIZE).toBe(1000);
    expect(refusal([ping(1), ping(2), ping(3)], V, 2).error.message).toMatch(/at most 2/);
    const big = Array.from({ length: DEFAULT_MAX_BATCH_SIZE + 1 }, (_, i) => ping(i));
    expect(refusal(big, V).error.code).toBe(ErrorCode.InvalidRequest);
    expect(readBatch(big.slice(1), { protocolVersion: V }).ok).toBe(true);
  });

  it('gives each invalid element its own error, with its id when readable, and keeps the rest', () => {
    const reading = readBatch([ping(1), 1, { jsonrpc: '2.0', id: 7, method: 5 }, note], {
      protocolVersion: V,
    });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.messages).toEqual([ping(1), note]);
    expect(reading.errors).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: expect.any(String) } },
      { jsonrpc: '2.0', id: 7, error: { code: ErrorCode.InvalidRequest, message: expect.any(String) } },
    ]);
  });
});

describe('parseMessageOrBatch', () => {
  it('returns arrays undecided and checks single messages', () => {
    expect(parseMessageOrBatch('[1,{"a":2}]')).toEqual([1, { a: 2 }]);
    expect(parseMessageOrBatch('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual(ping(1));
    expect(() => parseMessageOrBatch('[')).toThrow(expect.objectContaining({ code: ErrorCode.ParseError }));
    expect(() => parseMessageOrBatch('{"id":1}')).toThrow(McpError);
  });
});

describe('BatchResponses', () => {
  function collector() {
    const written: JSONRPCResponse[][] = [];
    const batches = new BatchResponses({
      write: async (responses) => {
        written.push(responses);
      },
    });
    return { batches, written };
  }

  it('writes one array once every request of the batch is answered, in any order', async () => {
    const { batches, written } = collector();
    expect(batches.open({ messages: [ping(1), note, ping(2)], errors: [] })).toBeUndefined();
    expect(batches.pending).toBe(2);
    expect(batches.take({ jsonrpc: '2.0', method: 'notifications/progress' })).toBeUndefined();
    expect(batches.take(ok(99))).toBeUndefined();
    await batches.take(ok(2));
    expect(written).toEqual([]);
    await batches.take(ok(1));
    expect(written).toEqual([[ok(2), ok(1)]]);
    expect(batches.pending).toBe(0);
  });

  it('answers nothing for a batch of only notifications and responses', () => {
    const { batches, written } = collector();
    expect(batches.open({ messages: [note, ok(3)], errors: [] })).toBeUndefined();
    expect(batches.pending).toBe(0);
    expect(written).toEqual([]);
  });

  it('puts element errors in the same array, or writes them at once when no request is left', async () => {
    const { batches, written } = collector();
    const invalid = { jsonrpc: '2.0' as const, id: null, error: { code: -32600, message: 'bad' } };
    await batches.open({ messages: [note], errors: [invalid] });
    expect(written).toEqual([[invalid]]);
    batches.open({ messages: [ping('a')], errors: [invalid] });
    await batches.take(ok('a'));
    expect(written[1]).toEqual([invalid, ok('a')]);
  });

  it('keeps batches apart; a duplicate id answered at once lands in the batch that sent it', async () => {
    const { batches, written } = collector();
    const duplicate = (id: number) => ({
      jsonrpc: '2.0' as const,
      id,
      error: {
        code: -32600,
        message: `Duplicate request id ${id}: a request with this id is still in flight`,
      },
    });
    batches.open({ messages: [ping(1), ping(2)], errors: [] });
    // A later batch reuses id 2 while the first batch's 2 is still running: the engine answers that
    // one -32600 as it is delivered, before anything else.
    batches.open({ messages: [ping(2), ping(3)], errors: [] });
    expect(batches.pending).toBe(4);
    await batches.take(duplicate(2));
    await batches.take(ok(3));
    expect(written).toEqual([[duplicate(2), ok(3)]]);
    await batches.take(ok(2));
    await batches.take(ok(1));
    expect(written[1]).toEqual([ok(2), ok(1)]);
    expect(batches.pending).toBe(0);
    // Nothing more is awaited for id 2: a stray answer goes out on its own.
    expect(batches.take(ok(2))).toBeUndefined();
  });

  it('answers both copies of an id repeated inside one batch in its one array (issue #24 item 10)', async () => {
    const { batches, written } = collector();
    const duplicate = {
      jsonrpc: '2.0' as const,
      id: 5,
      error: { code: -32600, message: 'Duplicate request id 5' },
    };
    batches.open({ messages: [ping(5), ping(5)], errors: [] });
    expect(batches.pending).toBe(2);
    await batches.take(duplicate);
    expect(written).toEqual([]);
    await batches.take(ok(5));
    expect(written).toEqual([[duplicate, ok(5)]]);
    expect(batches.pending).toBe(0);
  });

  it('clear() forgets open batches, so answers after close are neither kept nor written', () => {
    const { batches, written } = collector();
    batches.open({ messages: [ping(1), ping(2)], errors: [] });
    batches.take(ok(1));
    batches.clear();
    expect(batches.pending).toBe(0);
    expect(batches.take(ok(2))).toBeUndefined();
    expect(written).toEqual([]);
  });

  it('hands the write of the last answer back, so its failure reaches the sender', async () => {
    const batches = new BatchResponses({ write: () => Promise.reject(new Error('pipe closed')) });
    batches.open({ messages: [ping(1)], errors: [] });
    await expect(batches.take(ok(1))).rejects.toThrow('pipe closed');
  });
});

describe('JsonLineDecoder with onbatch', () => {
  it('hands an array line to onbatch and reports it as invalid without one', () => {
    const batches: unknown[][] = [];
    const messages: JSONRPCMessage[] = [];
    const errors: McpError[] = [];
    const sink = {
      onmessage: (message: JSONRPCMessage) => messages.push(message),
      onerror: (error: McpError) => errors.push(error),
    };
    new JsonLineDecoder({ ...sink, onbatch: (values) => batches.push(values) }).push(
      '[{"a":1}]\n{"jsonrpc":"2.0","method":"x"}\n',
    );
    expect(batches).toEqual([[{ a: 1 }]]);
    expect(messages).toHaveLength(1);
    new JsonLineDecoder(sink).push('[]\n');
    expect(errors.map((error) => error.code)).toEqual([ErrorCode.InvalidRequest]);
  });
});

describe('BatchResponses.receive', () => {
  const request = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' });

  it('refuses a batch whole: reported to onerror and answered with one -32600 error (id null)', async () => {
    const written: unknown[] = [];
    const errors: Error[] = [];
    const delivered: unknown[] = [];
    new BatchResponses({ write: async () => {} }).receive([request(1)], {
      protocolVersion: '2025-06-18',
      deliver: (message) => delivered.push(message),
      refuse: async (error) => void written.push(error),
      onerror: (error) => errors.push(error),
    });
    expect(delivered).toEqual([]);
    expect(written).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) }]);
    expect(errors).toHaveLength(1);
  });

  it('delivers an accepted batch until deliver returns false, and collects its answers', async () => {
    const arrays: unknown[][] = [];
    const batches = new BatchResponses({ write: async (responses) => void arrays.push(responses) });
    const delivered: number[] = [];
    batches.receive([request(1), request(2), request(3)], {
      protocolVersion: '2025-03-26',
      deliver: (message) => {
        delivered.push((message as { id: number }).id);
        return delivered.length < 2; // the transport closed while handling the second
      },
      refuse: async () => {},
      onerror: () => {},
    });
    expect(delivered).toEqual([1, 2]);
    expect(batches.pending).toBe(3);
  });
});
