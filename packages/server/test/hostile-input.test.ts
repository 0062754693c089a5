import { ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Server } from '../src/index.js';
import { connect, initialize, modernMeta, tick } from './helpers.js';

async function failure(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

function serverReturning(value: unknown): Server {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', () => value as object);
  server.setRequestHandler('tools/list', async () => value as object);
  return server;
}

describe('a handler that returns no result object (issue #24 item 14)', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', []],
    ['a string', 'text'],
  ])('answers -32603 naming the method on both eras when it returns %s', async (_, value) => {
    const wire = await connect(serverReturning(value));
    for (const method of ['tools/call', 'tools/list']) {
      const params = method === 'tools/call' ? { name: 'x', arguments: {} } : {};
      const modern = await failure(wire.call(method, { ...params, _meta: modernMeta() }));
      expect(modern.code).toBe(ErrorCode.InternalError);
      expect(modern.message).toBe(`Handler for ${method} returned no result object`);
    }
    await initialize(wire);
    const legacy = await failure(wire.call('tools/call', { name: 'x', arguments: {} }));
    expect(legacy.message).toBe('Handler for tools/call returned no result object');
  });
});

describe('duplicate in-flight request ids (issue #24 item 10)', () => {
  it('answers the duplicate -32600 and the original once, on a modern and a legacy session', async () => {
    const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
    const releases: Array<() => void> = [];
    let calls = 0;
    server.setRequestHandler('tools/call', () => {
      calls++;
      return new Promise<object>((resolve) => releases.push(() => resolve({ content: [] })));
    });
    const wire = await connect(server);
    const send = (id: number, meta: Record<string, unknown> | undefined) =>
      wire.clientTransport.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: meta === undefined ? { name: 'x' } : { name: 'x', _meta: meta },
      });
    await send(900, modernMeta());
    await send(900, modernMeta());
    await tick();
    const answers = () => wire.sent.filter((m) => 'id' in m && m.id === 900 && !('method' in m));
    expect(answers()).toEqual([
      {
        jsonrpc: '2.0',
        id: 900,
        error: {
          code: ErrorCode.InvalidRequest,
          message: 'Duplicate request id 900: a request with this id is still in flight',
        },
      },
    ]);
    releases.shift()?.();
    await tick();
    expect(answers()).toHaveLength(2);
    expect(answers()[1]).toMatchObject({ id: 900, result: { content: [] } });
    expect(calls).toBe(1);

    await initialize(wire);
    await send(901, undefined);
    await send(901, undefined);
    await tick();
    releases.shift()?.();
    await tick();
    const legacy = wire.sent.filter((m) => 'id' in m && m.id === 901 && !('method' in m));
    expect(legacy).toHaveLength(2);
    expect(legacy[0]).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
    expect(legacy[1]).toMatchObject({ result: { content: [] } });
    expect(calls).toBe(2);
  });
});
