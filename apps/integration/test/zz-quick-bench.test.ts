import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { McpServer } from '@x/server';
import { it } from 'vitest';
import { z } from 'zod';

it('quick bench', async () => {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(a);
  const runs: number[] = [];
  for (let i = 0; i < 2000; i++) await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    for (let i = 0; i < 5000; i++) await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    runs.push((performance.now() - t) / 5000 * 1000);
  }
  runs.sort((x, y) => x - y);
  console.log(`QB us/call median ${runs[2].toFixed(2)} all ${runs.map((x) => x.toFixed(2)).join(' ')}`);
  await client.close(); await server.close();
}, 120_000);
