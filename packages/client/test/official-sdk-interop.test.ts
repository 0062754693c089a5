import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '../src/index.js';
import { CLIENT_INFO } from './helpers.js';

/** A legacy-only server from the official SDK, over the official SDK's own transport pair. */
async function officialServer() {
  const server = new McpServer({ name: 'official', version: '1.0.0' });
  server.registerTool(
    'add',
    { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool('ask', { inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } } },
    });
    return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // Structurally the same at runtime; only the types differ: our JSONRPCErrorResponse admits `id: null`
  // (the wire form of an unreadable id), which the official SDK's onmessage type does not.
  return clientSide as unknown as Transport;
}

describe('interop with the official SDK server', () => {
  it('probes, falls back to initialize, and calls tools with output validation and elicitation', async () => {
    const client = new Client(CLIENT_INFO);
    client.setElicitationHandler(() => ({ action: 'accept', content: {} }));
    await client.connect(await officialServer());
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo?.name).toBe('official');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'ask']);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const asked = await client.callTool({ name: 'ask', arguments: {} });
    expect(asked.content).toEqual([{ type: 'text', text: '{"name":"Ada"}' }]);
    await client.close();
  });
});
