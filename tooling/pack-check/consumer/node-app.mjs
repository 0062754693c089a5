// A Node ESM app on the installed tarballs: every entry point loads, then a tool call over the in-memory
// pair and over stdio (a child process running stdio-server.mjs). Prints one JSON line of results.
import { readFileSync } from 'node:fs';
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { McpServer } from '@x/server';
import { StdioClientTransport } from '@x/transport-stdio';
import { z } from 'zod';

const entries = JSON.parse(readFileSync(new URL('./entries.json', import.meta.url), 'utf8'));
const loaded = [];
for (const specifier of entries) {
  const module = await import(specifier);
  loaded.push(`${specifier}:${Object.keys(module).length}`);
}

const server = new McpServer({ name: 'in-memory', version: '1.0.0' });
server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const memoryClient = new Client({ name: 'consumer', version: '1.0.0' });
await memoryClient.connect(clientSide);
const inMemory = await memoryClient.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
await memoryClient.close();

const stdioClient = new Client({ name: 'consumer', version: '1.0.0' });
const serverFile = new URL('./stdio-server.mjs', import.meta.url).pathname;
await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: [serverFile] }));
const stdio = await stdioClient.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
await stdioClient.close();

console.log(JSON.stringify({ loaded, inMemory: inMemory.content, stdio: stdio.content }));
