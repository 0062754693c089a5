import { expect, it } from 'vitest';
import { InMemoryTransport, ListToolsResultSchema, Protocol } from '@x/protocol';

// The README's example, verbatim apart from the assertion: it must keep working.
it('README example: two engines over the in-memory pair', async () => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = new Protocol();
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  }));
  const client = new Protocol();
  await server.connect(b);
  await client.connect(a);

  const { tools } = await client.request({ method: 'tools/list' }, ListToolsResultSchema, { timeout: 5_000 });
  expect(tools.map((t) => t.name)).toEqual(['echo']);
  await client.close();
});
