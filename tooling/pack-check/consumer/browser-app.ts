// A browser client app: the client, the runtime-neutral server and every client transport. Bundled
// with esbuild --platform=browser (no node: module may be needed) and typechecked with DOM types only.
import { Client } from '@x/client';
import { InMemoryTransport } from '@x/protocol';
import { McpServer } from '@x/server';
import { SseClientTransport } from '@x/transport-sse';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';

const transports = [
  new StreamableHttpClientTransport('https://example.com/mcp'),
  new SseClientTransport('https://example.com/sse'),
  new WebSocketClientTransport('wss://example.com/ws'),
];

const server = new McpServer({ name: 'in-page', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes' }, () => ({ content: [{ type: 'text', text: 'echo' }] }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'browser', version: '1.0.0' });
await client.connect(clientSide);
const result = await client.callTool({ name: 'echo', arguments: {} });
await client.close();
const first = result.content[0];
const text: string = first !== undefined && first.type === 'text' ? first.text : '';
console.log(JSON.stringify({ transports: transports.length, text }));
