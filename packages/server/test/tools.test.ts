import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { McpError } from '@x/protocol';
import { McpServer } from '../src/index.js';
import { connect, initialize } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

const RAW_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { name: { $anchor: 'n', type: 'string', minLength: 1 } },
  properties: { who: { $ref: '#/$defs/name' }, n: { allOf: [{ type: 'integer' }, { minimum: 0 }] } },
  required: ['who'],
  additionalProperties: false,
};

function calculator(): McpServer {
  const server = new McpServer({ name: 'calc', version: '1' });
  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('raw', { inputSchema: RAW_SCHEMA }, (args) => ({
    content: [{ type: 'text', text: `hello ${String(args['who'])}` }],
  }));
  return server;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('tools', () => {
  it('lists tools with published schemas, raw JSON Schema verbatim', async () => {
    const wire = await connect(calculator());
    await initialize(wire);
    const result = await wire.call('tools/list');
    expect(result).toEqual({
      tools: [
        {
          name: 'add',
          title: 'Add',
          description: 'Adds two numbers',
          inputSchema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          },
          outputSchema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: { sum: { type: 'number' } },
            required: ['sum'],
            additionalProperties: false,
          },
          annotations: { readOnlyHint: true },
        },
        { name: 'raw', inputSchema: RAW_SCHEMA },
      ],
    });
  });

  it('calls a tool; invalid arguments are a tool error (isError), unknown tools -32602', async () => {
    const wire = await connect(calculator());
    await initialize(wire);
    await expect(wire.call('tools/call', { name: 'add', arguments: { a: 1, b: 2 } })).resolves.toEqual({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { sum: 3 },
    });
    const bad = await wire.call('tools/call', { name: 'add', arguments: { a: 'x' } });
    expect(bad['isError']).toBe(true);
    expect((bad['content'] as Array<{ text: string }>)[0]!.text).toMatch(/Invalid arguments for tool add/);
    const rawBad = await wire.call('tools/call', { name: 'raw', arguments: { who: '' } });
    expect(rawBad['isError']).toBe(true);
    await expect(wire.call('tools/call', { name: 'raw', arguments: { who: 'Ann', n: 2 } })).resolves.toEqual({
      content: [{ type: 'text', text: 'hello Ann' }],
    });
    await expect(wire.call('tools/call', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('checks structuredContent against the output schema (-32603)', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const out = z.object({ n: z.number() });
    server.registerTool('wrong', { outputSchema: out }, () => ({
      content: [],
      structuredContent: { n: 'no' } as never,
    }));
    server.registerTool('missing', { outputSchema: out }, () => ({ content: [] }));
    server.registerTool('failed', { outputSchema: out }, () => ({ content: [], isError: true }));
    server.registerTool('throws', {}, () => {
      throw new Error('boom');
    });
    const wire = await connect(server);
    await initialize(wire);
    await expect(wire.call('tools/call', { name: 'wrong' })).rejects.toMatchObject({ code: -32603 });
    await expect(wire.call('tools/call', { name: 'missing' })).rejects.toMatchObject({ code: -32603 });
    await expect(wire.call('tools/call', { name: 'failed' })).resolves.toEqual({
      content: [],
      isError: true,
    });
    await expect(wire.call('tools/call', { name: 'throws' })).resolves.toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
  });

  it('answers a synchronous tool in the turn its call arrives; async handlers keep their error rules', async () => {
    const server = calculator();
    server.registerTool('rejects', {}, async () => {
      throw new Error('later boom');
    });
    server.registerTool('protocol', {}, async () => {
      throw new McpError(-32042, 'protocol level');
    });
    const wire = await connect(server);
    await initialize(wire);
    const before = wire.sent.length;
    // Hand the request straight to the server's transport: no microtask runs before the check.
    wire.serverTransport.onmessage?.({
      jsonrpc: '2.0',
      id: 'sync',
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 2, b: 3 } },
    });
    expect(wire.sent.slice(before)).toEqual([
      {
        jsonrpc: '2.0',
        id: 'sync',
        result: { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } },
      },
    ]);
    await expect(wire.call('tools/call', { name: 'rejects' })).resolves.toEqual({
      content: [{ type: 'text', text: 'later boom' }],
      isError: true,
    });
    await expect(wire.call('tools/call', { name: 'protocol' })).rejects.toMatchObject({ code: -32042 });
  });

  it('accepts any Standard Schema (async validation, own JSON Schema converter) and raw output schemas', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const published = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const asyncSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'custom',
        validate: async (value: unknown) =>
          typeof (value as { n?: unknown }).n === 'number'
            ? { value: { n: (value as { n: number }).n * 2 } }
            : { issues: [{ message: 'n must be a number', path: [{ key: 'n' }] }] },
        jsonSchema: { input: () => published, output: () => published },
      },
    };
    server.registerTool(
      'double',
      {
        inputSchema: asyncSchema,
        outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
      (args) => ({ content: [], structuredContent: { n: (args as { n: number }).n } }),
    );
    const wire = await connect(server);
    await initialize(wire);
    const listed = await wire.call('tools/list');
    expect((listed['tools'] as Array<Record<string, unknown>>)[0]!['inputSchema']).toEqual(published);
    await expect(wire.call('tools/call', { name: 'double', arguments: { n: 2 } })).resolves.toEqual({
      content: [],
      structuredContent: { n: 4 },
    });
    const bad = await wire.call('tools/call', { name: 'double', arguments: { n: 'x' } });
    expect(bad).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool double: n: n must be a number' }],
      isError: true,
    });
    await expect(wire.call('tools/call', { name: 'double', arguments: { n: 0.25 } })).rejects.toMatchObject({
      code: -32603,
    });
  });

  it('refuses unpublishable schemas, bad names and bad x-mcp-header annotations at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const opaque = {
      '~standard': { version: 1 as const, vendor: 'opaque', validate: (value: unknown) => ({ value }) },
    };
    expect(() => server.registerTool('t1', { inputSchema: opaque }, () => ({ content: [] }))).toThrow(
      /Standard JSON Schema/,
    );
    expect(() =>
      server.registerTool('t1', { inputSchema: opaque, inputJsonSchema: { type: 'object' } }, () => ({
        content: [],
      })),
    ).not.toThrow();
    expect(() => server.registerTool('bad name', {}, () => ({ content: [] }))).toThrow(/Invalid tool name/);
    const header = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
    const reg = (name: string, schema: Record<string, unknown>) => () =>
      server.registerTool(name, { inputSchema: schema }, () => ({ content: [] }));
    expect(reg('h1', header({ r: { type: 'string', 'x-mcp-header': 'Region' } }))).not.toThrow();
    expect(reg('h2', header({ r: { type: 'string', 'x-mcp-header': 'Bad Header' } }))).toThrow(/token/);
    expect(reg('h3', header({ r: { type: 'number', 'x-mcp-header': 'R' } }))).toThrow(
      /string, integer or boolean/,
    );
    expect(
      reg(
        'h4',
        header({ a: { type: 'string', 'x-mcp-header': 'R' }, b: { type: 'string', 'x-mcp-header': 'r' } }),
      ),
    ).toThrow(/case-insensitive/);
    expect(
      reg('h5', header({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'R' } } })),
    ).toThrow(/statically reachable/);
    expect(
      reg(
        'h6',
        header({ o: { type: 'object', properties: { deep: { type: 'boolean', 'x-mcp-header': 'Deep' } } } }),
      ),
    ).not.toThrow();
    // The rule the client applies (one implementation in @x/protocol): the root is no parameter, and
    // an `x-mcp-header` key inside `default` data is data. (The server's own copy refused the second
    // and accepted the first: a tool every client then dropped.)
    expect(reg('h7', { type: 'string', 'x-mcp-header': 'Root' })).toThrow(/"object"/);
    expect(reg('h8', { ...header({}), 'x-mcp-header': 'Root' })).toThrow(/the schema root is not statically/);
    expect(reg('h9', header({ o: { type: 'object', default: { 'x-mcp-header': 'x' } } }))).not.toThrow();
  });

  it('handles update, enable, disable and remove with one debounced list_changed', async () => {
    vi.useFakeTimers();
    const server = new McpServer({ name: 's', version: '1' }, { listChangedDebounceMs: 50 });
    const tool = server.registerTool('a', { description: 'first' }, () => ({ content: [] }));
    const wirePromise = connect(server);
    await vi.runAllTimersAsync();
    const wire = await wirePromise;
    const init = initialize(wire);
    await vi.runAllTimersAsync();
    await init;
    wire.sent.length = 0;
    tool.update({ description: 'second' });
    tool.disable();
    tool.enable();
    server.registerTool('b', {}, () => ({ content: [] }));
    await vi.advanceTimersByTimeAsync(49);
    expect(wire.notifications('notifications/tools/list_changed')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(wire.notifications('notifications/tools/list_changed')).toHaveLength(1);
    const list = wire.call('tools/list');
    await vi.runAllTimersAsync();
    expect(await list).toEqual({
      tools: [
        { name: 'a', description: 'second', inputSchema: { type: 'object', properties: {} } },
        { name: 'b', inputSchema: { type: 'object', properties: {} } },
      ],
    });
    tool.disable();
    const call = wire.call('tools/call', { name: 'a' });
    const rejected = expect(call).rejects.toMatchObject({ code: -32602 });
    await vi.runAllTimersAsync();
    await rejected;
    tool.remove();
    await vi.runAllTimersAsync();
    expect(wire.notifications('notifications/tools/list_changed')).toHaveLength(3);
  });

  it('gives handlers progress, cancellation and client info', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    let aborted: unknown;
    server.registerTool('slow', {}, async (_args, ctx) => {
      await ctx.sendProgress({ progress: 50, total: 100, message: 'half' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      aborted = ctx.signal.reason;
      return { content: [] };
    });
    server.registerTool('who', {}, (_args, ctx) => ({
      content: [{ type: 'text', text: `${ctx.clientInfo?.name} ${ctx.protocolVersion} ${ctx.era}` }],
    }));
    const wire = await connect(server);
    await initialize(wire, { protocolVersion: '2025-03-26' });
    await expect(wire.call('tools/call', { name: 'who' })).resolves.toEqual({
      content: [{ type: 'text', text: 'test-client 2025-03-26 legacy' }],
    });
    const controller = new AbortController();
    const progress = vi.fn();
    const pending = wire.client.request({ method: 'tools/call', params: { name: 'slow' } }, z.object({}), {
      signal: controller.signal,
      onprogress: progress,
    });
    await afterTimeouts(5);
    expect(progress).toHaveBeenCalledWith(
      expect.objectContaining({ progress: 50, total: 100, message: 'half' }),
    );
    controller.abort('stop');
    await expect(pending).rejects.toBe('stop');
    await afterTimeouts(5);
    expect(aborted).toBeInstanceOf(DOMException);
    expect(wire.sent.filter((m) => 'result' in m && m.id === 3)).toEqual([]);
  });

  it('elicits, samples and lists roots through real requests on legacy', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('ask', {}, async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ann' } } },
      });
      const sample = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10,
        tools: [{ name: 'calc', inputSchema: { type: 'object' } }],
        toolChoice: { mode: 'auto' },
      });
      const roots = await ctx.listRoots();
      return {
        content: [
          {
            type: 'text',
            text: `${JSON.stringify(answer.content)} ${JSON.stringify(sample.content)} ${roots.roots.length}`,
          },
        ],
      };
    });
    const wire = await connect(server);
    await initialize(wire, {
      capabilities: { elicitation: { form: {} }, sampling: { tools: {} }, roots: {} },
    });
    const seen: string[] = [];
    wire.client.setRequestHandler('elicitation/create', (params) => {
      seen.push(`elicit ${String(params['message'])}`);
      return { action: 'accept', content: { name: 'Bo' } };
    });
    wire.client.setRequestHandler('sampling/createMessage', (params) => {
      seen.push(`sample ${JSON.stringify(params['toolChoice'])}`);
      return { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' };
    });
    wire.client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///r' }] }));
    await expect(wire.call('tools/call', { name: 'ask' })).resolves.toEqual({
      content: [{ type: 'text', text: '{"name":"Bo"} {"type":"text","text":"yo"} 1' }],
    });
    expect(seen).toEqual(['elicit Name?', 'sample {"mode":"auto"}']);
  });

  it('fails clearly when asking for what the client did not declare', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('ask', {}, async (_args, ctx) => {
      await ctx.elicit({ mode: 'url', message: 'Log in', url: 'https://example.com', elicitationId: 'e1' });
      return { content: [] };
    });
    const wire = await connect(server);
    await initialize(wire, { capabilities: { elicitation: { form: {} } } });
    await expect(wire.call('tools/call', { name: 'ask' })).rejects.toMatchObject({
      message: expect.stringMatching(/elicitation\.url/),
    });
    expect(wire.sent.some((m) => 'method' in m && m.method === 'elicitation/create')).toBe(false);
  });
});
