import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index.js';

describe('interop with the official SDK client (1.32.2)', () => {
  it('initializes, lists, calls, reads, gets prompts, completes and elicits', async () => {
    const server = new McpServer({ name: 'x', version: '1' }, { instructions: 'hi' });
    server.registerTool(
      'add',
      { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
      ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
        structuredContent: { sum: a + b },
      }),
    );
    server.registerTool('ask', {}, async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: String(answer.content?.['name']) }] };
    });
    server.registerResource(
      't',
      new ResourceTemplate('test://t/{id}', { complete: { id: () => ['7'] } }),
      {},
      (uri, { id }) => ({
        contents: [{ uri, text: `item ${String(id)}` }],
      }),
    );
    server.registerPrompt('p', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // Runtime-compatible; the cast is needed because @x/protocol's JSONRPCErrorResponse admits `id: null`,
    // which the SDK's `onmessage` parameter type does not (reported to the integrator).
    await server.connect(serverSide as unknown as Transport);
    const client = new Client({ name: 'sdk', version: '1' }, { capabilities: { elicitation: {} } });
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ann' } }));
    await client.connect(clientSide);
    expect(client.getServerVersion()).toEqual({ name: 'x', version: '1' });
    expect(client.getInstructions()).toBe('hi');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add', 'ask']);
    await expect(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).resolves.toMatchObject({
      content: [{ type: 'text', text: '3' }],
    });
    await expect(client.callTool({ name: 'ask' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'Ann' }],
    });
    await expect(client.readResource({ uri: 'test://t/9' })).resolves.toMatchObject({
      contents: [{ uri: 'test://t/9', text: 'item 9' }],
    });
    await expect(client.getPrompt({ name: 'p', arguments: { who: 'Bo' } })).resolves.toMatchObject({
      messages: [{ content: { text: 'hello Bo' } }],
    });
    await expect(
      client.complete({
        ref: { type: 'ref/resource', uri: 'test://t/{id}' },
        argument: { name: 'id', value: '' },
      }),
    ).resolves.toMatchObject({ completion: { values: ['7'] } });
    await client.setLoggingLevel('error');
    await client.ping();
    await client.close();
  });
});
