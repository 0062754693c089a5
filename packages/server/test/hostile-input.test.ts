import { ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { Server } from '../src/index.js';
import { connect, initialize, modernMeta } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

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
    await afterTimeouts(5);
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
    await afterTimeouts(5);
    expect(answers()).toHaveLength(2);
    expect(answers()[1]).toMatchObject({ id: 900, result: { content: [] } });
    expect(calls).toBe(1);

    await initialize(wire);
    await send(901, undefined);
    await send(901, undefined);
    await afterTimeouts(5);
    releases.shift()?.();
    await afterTimeouts(5);
    const legacy = wire.sent.filter((m) => 'id' in m && m.id === 901 && !('method' in m));
    expect(legacy).toHaveLength(2);
    expect(legacy[0]).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
    expect(legacy[1]).toMatchObject({ result: { content: [] } });
    expect(calls).toBe(2);
  });
});

describe('errors for malformed requests say what was wrong (issue #24 item 14)', () => {
  async function build() {
    const { McpServer } = await import('../src/index.js');
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('echo', {}, () => ({ content: [] }));
    server.registerPrompt('p', {}, () => ({ messages: [] }));
    server.registerResource('r', 'test://r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    return server;
  }
  const huge = 'n'.repeat(100_000);

  it.each([
    ['tools/call', {}, 'tools/call needs a string name (got nothing)'],
    ['tools/call', { name: 123 }, 'tools/call needs a string name (got a number)'],
    ['tools/call', { name: huge }, `Unknown tool: ${'n'.repeat(100)}… (100000 characters)`],
    ['prompts/get', { name: ['p'] }, 'prompts/get needs a string name (got an array)'],
    ['prompts/get', { name: huge }, `Unknown prompt: ${'n'.repeat(100)}… (100000 characters)`],
  ] as const)('%s %j', async (method, params, message) => {
    for (const era of ['modern', 'legacy'] as const) {
      const wire = await connect(await build());
      if (era === 'legacy') await initialize(wire);
      const sent = era === 'modern' ? { ...params, _meta: modernMeta() } : params;
      const error = await failure(wire.call(method, sent));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toBe(message);
    }
  });

  it('names the wrong _meta field, its kind and the accepted values', async () => {
    const wire = await connect(await build());
    const call = (meta: Record<string, unknown>) => failure(wire.call('tools/list', { _meta: meta }));
    const base = modernMeta();
    expect((await call({ ...base, 'io.modelcontextprotocol/protocolVersion': 5 })).message).toBe(
      'Invalid _meta "io.modelcontextprotocol/protocolVersion": expected a string, got a number',
    );
    expect((await call({ ...base, 'io.modelcontextprotocol/clientCapabilities': 'x' })).message).toBe(
      'Invalid _meta "io.modelcontextprotocol/clientCapabilities": expected an object, got a string',
    );
    const version = await call({ ...base, 'io.modelcontextprotocol/protocolVersion': huge });
    expect(version.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(version.message.length).toBeLessThan(300);
    expect(version.message).toMatch(/\(supported: 2026-07-28, 2025-11-25/);
    expect((await call({ ...base, 'io.modelcontextprotocol/logLevel': 'loud' })).message).toBe(
      'Invalid _meta "io.modelcontextprotocol/logLevel": loud (expected one of debug, info, notice, warning, error, critical, alert, emergency)',
    );
    await initialize(wire);
    expect((await failure(wire.call('logging/setLevel', { level: { a: 1 } }))).message).toBe(
      'Invalid log level: an object (expected one of debug, info, notice, warning, error, critical, alert, emergency)',
    );
  });
});

describe('a client answering a server request with a malformed result (issue #24 item 14)', () => {
  it('rejects with -32603 naming the method and the client', async () => {
    const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/call', async (_params, ctx) => {
      const error = await ctx.listRoots().then(
        () => undefined,
        (e: unknown) => e as McpError,
      );
      return { content: [{ type: 'text', text: `${error?.code} ${error?.message}` }] };
    });
    const wire = await connect(server);
    await initialize(wire, { capabilities: { roots: {} } });
    wire.client.setRequestHandler('roots/list', () => ({ roots: 'not-a-list' }));
    const result = await wire.call('tools/call', { name: 'x', arguments: {} });
    expect(result['content']).toEqual([
      {
        type: 'text',
        text: '-32603 Invalid result for roots/list from the client: roots: Invalid input: expected array, received string',
      },
    ]);
  });
});
