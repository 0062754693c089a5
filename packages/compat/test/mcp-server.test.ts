import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { completable } from '../src/server/completable.js';
import { McpServer, ResourceTemplate } from '../src/server/mcp.js';

async function connected(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('compat McpServer, driven by the x-mcp Client', () => {
  it('serves tools, resources and prompts registered the 1.x ways, on the initialize era', async () => {
    const server = new McpServer({ name: 'compat', version: '1.0.0' });
    server.registerTool(
      'add',
      { inputSchema: { a: z.number(), b: z.number() } },
      ({ a, b }: { a: number; b: number }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }),
    );
    // 1.x: a tool without a schema gets `extra` as its only argument.
    server.tool('whoami', 'Says the request id', (extra: { requestId: unknown; signal: AbortSignal }) => ({
      content: [{ type: 'text', text: `${typeof extra.requestId}:${extra.signal.aborted}` }],
    }));
    server.registerResource('readme', 'file:///README.md', { mimeType: 'text/plain' }, (uri: URL) => ({
      contents: [{ uri: uri.href, text: `read ${uri.protocol}` }],
    }));
    server.registerResource(
      'user',
      new ResourceTemplate('users://{id}', { list: undefined }),
      {},
      (uri: URL, { id }: { id: string }) => ({ contents: [{ uri: uri.href, text: `user ${id}` }] }),
    );
    server.registerPrompt(
      'greet',
      {
        argsSchema: {
          name: completable(z.string(), (value) => ['ada', 'alan'].filter((n) => n.startsWith(value))),
        },
      },
      ({ name }: { name: string }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Hi ${name}` } }],
      }),
    );
    const client = await connected(server);
    expect(client.era).toBe('legacy');
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: 'text', text: '5' },
    ]);
    expect((await client.callTool({ name: 'whoami' })).content).toEqual([
      { type: 'text', text: 'number:false' },
    ]);
    expect((await client.readResource({ uri: 'file:///README.md' })).contents[0]).toMatchObject({
      text: 'read file:',
    });
    expect((await client.readResource({ uri: 'users://7' })).contents[0]).toMatchObject({ text: 'user 7' });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'ada' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hi ada' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'al' },
    });
    expect(completion.completion.values).toEqual(['alan']);
    const bad = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('answers a call of an unknown or disabled tool with an isError result, as 1.x', async () => {
    const server = new McpServer({ name: 'compat', version: '1.0.0' });
    const off = server.registerTool('off', {}, () => ({ content: [{ type: 'text', text: 'on' }] }));
    off.disable();
    server.registerTool('on', {}, () => ({ content: [{ type: 'text', text: 'on' }] }));
    const client = await connected(server);
    for (const name of ['nope', 'off']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain(name);
    }
    await client.close();
  });
});
