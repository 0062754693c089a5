import { PassThrough } from 'node:stream';
import { ErrorCode, type JSONRPCRequest } from '@x/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioServerTransport } from '../src/index.js';
import { cleanup, track } from './helpers.js';
import { waitFor } from '@x/test-kit';

afterEach(cleanup);

/**
 * A 2025-03-26 server on pipes whose requests are answered only when the test says so, the way a slow
 * tool would be; answering behaves as an engine that refuses an id it already holds would (issue #24
 * item 10, engine side): the duplicate gets -32600 at once.
 */
async function batchServer() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = track(new StdioServerTransport({ stdin: input, stdout: output }));
  transport.setProtocolVersion('2025-03-26');
  const lines: unknown[] = [];
  const delivered: JSONRPCRequest[] = [];
  output.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
  });
  const inFlight = new Set<string | number>();
  transport.onerror = () => undefined;
  transport.onmessage = (message) => {
    if (!('method' in message && 'id' in message)) return;
    if (inFlight.has(message.id)) {
      void transport.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCode.InvalidRequest, message: 'engine: duplicate id' },
      });
      return;
    }
    inFlight.add(message.id);
    delivered.push(message);
  };
  await transport.start();
  const answer = (id: string | number) => {
    inFlight.delete(id);
    return transport.send({ jsonrpc: '2.0', id, result: { answered: id } });
  };
  const send = (payload: unknown) => input.write(`${JSON.stringify(payload)}\n`);
  return { send, answer, lines, delivered };
}

const request = (id: string | number, method = 'tools/call') => ({ jsonrpc: '2.0', id, method });

// Issue #24 item 10: "in a 2025-03-26 batch a duplicate's answer is lost or lands in the next batch".
describe('StdioServerTransport: duplicate request ids in 2025-03-26 batches', () => {
  it('a duplicate inside one batch is answered -32600 in that batch; the original keeps its answer', async () => {
    const { send, answer, lines, delivered } = await batchServer();
    send([request(1, 'a'), request(1, 'b'), request(2, 'c')]);
    await waitFor(() => delivered.length === 2);
    expect(delivered.map((message) => message.method)).toEqual(['a', 'c']);
    await answer(1);
    await answer(2);
    await waitFor(() => lines.length === 1);
    const batch = lines[0] as { id: unknown; result?: unknown; error?: { code: number; message: string } }[];
    expect(batch).toHaveLength(3);
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 1, result: { answered: 1 } });
    expect(batch).toContainEqual({ jsonrpc: '2.0', id: 2, result: { answered: 2 } });
    const refusal = batch.find((element) => element.error !== undefined);
    expect(refusal).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidRequest } });
    expect(refusal?.error?.message).toContain('already in use in this batch');
  });

  it('a later batch reusing an id still open in an earlier batch: refused in the later batch, no mix-up', async () => {
    const { send, answer, lines, delivered } = await batchServer();
    send([request(1)]);
    await waitFor(() => delivered.length === 1);
    send([request(1), request(2)]);
    await waitFor(() => delivered.length === 2);
    await answer(2);
    await waitFor(() => lines.length === 1);
    expect(lines[0]).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: ErrorCode.InvalidRequest }) }),
      { jsonrpc: '2.0', id: 2, result: { answered: 2 } },
    ]);
    await answer(1);
    await waitFor(() => lines.length === 2);
    expect(lines[1]).toEqual([{ jsonrpc: '2.0', id: 1, result: { answered: 1 } }]);
  });

  it('a single request reusing an id open in a batch is answered alone; the batch waits for the real answer', async () => {
    const { send, answer, lines, delivered } = await batchServer();
    send([request(7), request(8)]);
    await waitFor(() => delivered.length === 2);
    send(request(7));
    await waitFor(() => lines.length === 1);
    expect(lines[0]).toMatchObject({ id: 7, error: { code: ErrorCode.InvalidRequest } });
    await answer(7);
    await answer(8);
    await waitFor(() => lines.length === 2);
    expect(lines[1]).toEqual([
      { jsonrpc: '2.0', id: 7, result: { answered: 7 } },
      { jsonrpc: '2.0', id: 8, result: { answered: 8 } },
    ]);
    expect(delivered).toHaveLength(2);
  });
});
