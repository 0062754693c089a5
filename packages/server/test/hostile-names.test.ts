import { ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index.js';
import { connect, initialize, modernMeta } from './helpers.js';

/**
 * Names a peer controls that are also properties of `Object.prototype`: a table indexed by them with a
 * plain property read finds a function (or the prototype) instead of nothing (issue #24 item 12).
 */
const HOSTILE = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'] as const;

function library(): McpServer {
  const server = new McpServer({ name: 'lib', version: '1' });
  const items = new ResourceTemplate('test://items/{id}', {
    list: undefined,
    complete: { id: (value) => ['1', '12'].filter((id) => id.startsWith(value)) },
  });
  server.registerResource('item', items, {}, (uri, { id }) => ({
    contents: [{ uri, text: String(id) }],
  }));
  server.registerResource('readme', 'test://readme', {}, (uri) => ({ contents: [{ uri, text: 'hi' }] }));
  server.registerPrompt(
    'greet',
    { argsSchema: z.object({ name: z.string() }), complete: { name: () => ['Ann'] } },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: name } }] }),
  );
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

async function failure(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const NO_COMPLETION = { completion: { values: [], hasMore: false } };

describe.each(HOSTILE)('a name from the wire that is an Object.prototype property: %s', (name) => {
  it('completion/complete: a template variable or prompt argument by that name completes to nothing', async () => {
    const wire = await connect(library());
    await initialize(wire);
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/resource', uri: 'test://items/{id}' },
        argument: { name, value: 'a' },
      }),
    ).resolves.toEqual(NO_COMPLETION);
    await expect(
      wire.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name, value: 'a' },
      }),
    ).resolves.toEqual(NO_COMPLETION);
    const unknownPrompt = await failure(
      wire.call('completion/complete', {
        ref: { type: 'ref/prompt', name },
        argument: { name: 'x', value: '' },
      }),
    );
    expect(unknownPrompt.code).toBe(ErrorCode.InvalidParams);
    expect(unknownPrompt.message).toBe(`Unknown prompt: ${name}`);
    const unknownTemplate = await wire.call('completion/complete', {
      ref: { type: 'ref/resource', uri: name },
      argument: { name, value: '' },
    });
    expect(unknownTemplate).toEqual(NO_COMPLETION);
  });

  it('tools/call, prompts/get, resources/read by that name are unknown (-32602 / -32002), not internal errors', async () => {
    const wire = await connect(library());
    await initialize(wire);
    const tool = await failure(wire.call('tools/call', { name, arguments: {} }));
    expect(tool.code).toBe(ErrorCode.InvalidParams);
    expect(tool.message).toContain(name);
    const prompt = await failure(wire.call('prompts/get', { name }));
    expect(prompt.code).toBe(ErrorCode.InvalidParams);
    expect(prompt.message).toContain(name);
    const resource = await failure(wire.call('resources/read', { uri: name }));
    expect(resource.code).toBe(ErrorCode.ResourceNotFound);
  });

  it('a tool argument or prompt argument by that name is validated, not looked up on the prototype', async () => {
    const wire = await connect(library());
    await initialize(wire);
    const result = await wire.call('tools/call', { name: 'echo', arguments: { text: 'x', [name]: 1 } });
    expect(result['content']).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('a request or notification method by that name is -32601 / ignored, on both eras', async () => {
    const wire = await connect(library());
    await initialize(wire);
    const legacy = await failure(wire.call(name));
    expect(legacy.code).toBe(ErrorCode.MethodNotFound);
    expect(legacy.message).toBe(`Method not found: ${name}`);
    const modern = await failure(wire.call(name, { _meta: modernMeta() }));
    expect(modern.code).toBe(ErrorCode.MethodNotFound);
    await wire.client.notification({ method: name });
    await wire.client.notification({ method: `notifications/${name}` });
    await expect(wire.call('ping')).resolves.toEqual({});
  });

  it('logging/setLevel with that level is -32602', async () => {
    const wire = await connect(library());
    await initialize(wire);
    const error = await failure(wire.call('logging/setLevel', { level: name }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
  });

  it('a modern request whose _meta holds that key is served', async () => {
    const wire = await connect(library());
    const result = await wire.call('tools/list', { _meta: { ...modernMeta(), [name]: 1 } });
    expect(result['tools']).toHaveLength(1);
  });
});
