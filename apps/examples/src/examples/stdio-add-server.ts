// The server half of `stdio.ts`: a one-tool McpServer on stdin/stdout, spawned by that example.
// stdout carries only protocol messages, so this process logs to stderr; it exits when stdin closes
// (the client's first shutdown step), without needing a signal.
import { McpServer } from '@x/server';
import { StdioServerTransport } from '@x/transport-stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'stdio-add-server', version: '1.0.0' });
server.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
await server.connect(new StdioServerTransport());
console.error(`stdio-add-server ready (pid ${process.pid})`);
