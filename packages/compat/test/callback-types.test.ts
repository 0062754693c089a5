// The 1.x callback type names of `server/mcp.js` (`ToolCallback`, `PromptCallback`, …): handlers typed
// with them register on this package's McpServer and are called with what the types promise.
import { InMemoryEventStore as OfficialInMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import type { EventId, EventStore, StreamId } from '../src/server/streamableHttp.js';
import {
  McpServer,
  type PromptCallback,
  type ReadResourceCallback,
  type ReadResourceTemplateCallback,
  ResourceTemplate,
  type ToolCallback,
} from '../src/server/mcp.js';

describe('1.x callback types on the compat McpServer', () => {
  it('a ToolCallback<shape>, a PromptCallback<shape> and the read callbacks get parsed args, URL and extra', async () => {
    const shape = { a: z.number(), b: z.number() };
    const add: ToolCallback<typeof shape> = ({ a, b }, extra) => ({
      content: [{ type: 'text', text: `${a + b} ${typeof extra.requestId}` }],
    });
    const bare: ToolCallback = (extra) => ({
      content: [{ type: 'text', text: String(extra.signal.aborted) }],
    });
    const argsShape = { name: z.string() };
    const greet: PromptCallback<typeof argsShape> = ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello ${name}` } }],
    });
    const readme: ReadResourceCallback = (uri) => ({ contents: [{ uri: uri.href, text: uri.protocol }] });
    const user: ReadResourceTemplateCallback = (uri, variables) => ({
      contents: [{ uri: uri.href, text: `user ${String(variables.id)}` }],
    });

    const server = new McpServer({ name: 'typed', version: '1.0.0' });
    server.registerTool('add', { inputSchema: shape }, add);
    server.registerTool('bare', {}, bare);
    server.registerPrompt('greet', { argsSchema: argsShape }, greet);
    server.registerResource('readme', 'file:///README.md', {}, readme);
    server.registerResource('user', new ResourceTemplate('users://{id}', { list: undefined }), {}, user);

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    try {
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([
        { type: 'text', text: '5 number' },
      ]);
      expect((await client.callTool({ name: 'bare' })).content).toEqual([{ type: 'text', text: 'false' }]);
      const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'ada' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'hello ada' });
      expect((await client.readResource({ uri: 'file:///README.md' })).contents[0]).toMatchObject({
        text: 'file:',
      });
      expect((await client.readResource({ uri: 'users://42' })).contents[0]).toMatchObject({
        text: 'user 42',
      });
    } finally {
      await client.close();
    }
  });

  it("the official SDK's own InMemoryEventStore is an EventStore of this path (checked by typecheck, used here)", async () => {
    const store: EventStore = new OfficialInMemoryEventStore();
    // One event: the official store orders events of the same millisecond by a random suffix.
    const only: EventId = await store.storeEvent('s', { jsonrpc: '2.0', method: 'a' });
    expect(only.startsWith('s_')).toBe(true);
    const replayed: unknown[] = [];
    const stream: StreamId | undefined = await store.replayEventsAfter(only, {
      send: async (_id, message) => void replayed.push(message),
    });
    expect(stream).toBe('s');
    expect(replayed).toEqual([]);
  });

  it('registerTool types an inline callback from its input schema, as 1.x (args and extra, or extra alone)', async () => {
    const server = new McpServer({ name: 'inline', version: '1.0.0' });
    server.registerTool(
      'inline',
      { inputSchema: { n: z.number(), tag: z.string() } },
      async ({ n, tag }, extra) => {
        // Type checks (the package typecheck runs over test/): without the generic signature these are `never`.
        expectTypeOf(n).toEqualTypeOf<number>();
        expectTypeOf(tag).toEqualTypeOf<string>();
        expectTypeOf(extra.sendNotification).toBeFunction();
        return { content: [{ type: 'text', text: `${tag}:${n * 2}:${typeof extra.requestId}` }] };
      },
    );
    server.registerTool('inline-object', { inputSchema: z.object({ flag: z.boolean() }) }, ({ flag }) => {
      expectTypeOf(flag).toEqualTypeOf<boolean>();
      return { content: [{ type: 'text', text: String(!flag) }] };
    });
    server.registerTool('inline-bare', {}, (extra) => {
      expectTypeOf(extra.signal).toEqualTypeOf<AbortSignal>();
      return { content: [{ type: 'text', text: String(extra.signal.aborted) }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect((await client.callTool({ name: 'inline', arguments: { n: 21, tag: 't' } })).content).toEqual([
        { type: 'text', text: 't:42:number' },
      ]);
      expect((await client.callTool({ name: 'inline-object', arguments: { flag: true } })).content).toEqual([
        { type: 'text', text: 'false' },
      ]);
      expect((await client.callTool({ name: 'inline-bare', arguments: {} })).content).toEqual([
        { type: 'text', text: 'false' },
      ]);
    } finally {
      await client.close();
    }
  });
});
