// A strict TypeScript app on the installed tarballs (skipLibCheck: false), checked under node16 and
// bundler resolution. `entries.ts` (written by the test) imports every entry point of every package.
import './entries.js';
import { Client } from '@x/client';
import { InMemoryTransport, McpError } from '@x/protocol';
import { McpServer } from '@x/server';
import { StdioClientTransport } from '@x/transport-stdio';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';
import { WebSocketClientTransport } from '@x/transport-ws';
import { z } from 'zod';

const server = new McpServer({ name: 'typed', version: '1.0.0' });
server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));

export async function run(): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'typed', version: '1.0.0' });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  const first = result.content[0];
  return first !== undefined && first.type === 'text' ? first.text : '';
}

export const unused: unknown[] = [
  StdioClientTransport,
  StreamableHttpClientTransport,
  WebSocketClientTransport,
  toNodeHandler,
  McpError,
];
