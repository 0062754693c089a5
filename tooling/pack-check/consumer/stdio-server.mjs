// The root README's "server in 10 lines", as a user saves it.
import { McpServer } from '@x/server';
import { StdioServerTransport } from '@x/transport-stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
server.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
await server.connect(new StdioServerTransport());
