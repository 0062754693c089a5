import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Transport as OfficialTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Transport } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { SseClientTransport } from '../src/index.js';
import { startSseServer, useCleanup } from './helpers.js';
import { startHttpServer, waitFor } from '@x/test-kit';

const addCleanup = useCleanup();

/**
 * Runtime-wise our transports are the official `Transport`. The type needs a cast only because
 * @x/protocol declares `params?: Record<string, unknown>` without `| undefined`, which the SDK's
 * zod-inferred messages carry under exactOptionalPropertyTypes (reported as a @x/protocol bug).
 */
function asOfficial(transport: Transport): OfficialTransport {
  return transport as unknown as OfficialTransport;
}

/** An official McpServer with one tool; a fresh one per session, as v1 servers bind to one transport. */
function officialServer(): McpServer {
  const server = new McpServer({ name: 'interop', version: '1.0.0' });
  server.registerTool('greet', { description: 'Says hello' }, async () => ({
    content: [{ type: 'text', text: 'hello from the official server' }],
  }));
  return server;
}

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['greet']);
  const result = await client.callTool({ name: 'greet', arguments: {} });
  expect(result.content).toEqual([{ type: 'text', text: 'hello from the official server' }]);
}

describe('interop with @modelcontextprotocol/sdk 1.32.2', () => {
  it('official Client + SSEClientTransport ↔ official McpServer on our SseServer', async () => {
    const harness = await startSseServer(addCleanup, {
      endpoint: '/messages',
      onsession: async (transport) => {
        const server = officialServer();
        addCleanup(() => server.close());
        await server.connect(asOfficial(transport));
      },
    });
    const client = new Client({ name: 'official-client', version: '1.0.0' });
    addCleanup(() => client.close());
    await client.connect(new SSEClientTransport(new URL(harness.url)));
    await exercise(client);
    await client.close();
    await waitFor(() => harness.sse.sessionCount === 0);
  });

  it('official Client over our SseClientTransport ↔ official McpServer on the official SSEServerTransport', async () => {
    const transports = new Map<string, SSEServerTransport>();
    const http = await startHttpServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        transport.onclose = () => transports.delete(transport.sessionId);
        const server = officialServer();
        addCleanup(() => server.close());
        void server.connect(transport);
        return;
      }
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && transport !== undefined) void transport.handlePostMessage(req, res);
      else res.writeHead(404).end();
    });
    addCleanup(http.close);
    const client = new Client({ name: 'x-mcp-client', version: '1.0.0' });
    addCleanup(() => client.close());
    await client.connect(asOfficial(new SseClientTransport(`${http.url}/sse`)));
    await exercise(client);
    await client.close();
    await waitFor(() => transports.size === 0);
  });
});
